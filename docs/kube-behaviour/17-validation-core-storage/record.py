# Sends cases.py to a reference kube-apiserver and writes the answers to
# apiserver/builtin/testdata/kube-validation-core-storage.json. Namespace "val" becomes valcore-r<run>-<i>,
# "valcore-" names become "valcore-r<run>-"; both are renamed back in what is recorded.
import json, os, random, ssl, sys, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES
BASE = os.environ.get('REF', 'https://127.0.0.1:18510')
TOKEN = os.environ.get('TOKEN', 'reference-admin-token')
OUT = os.environ.get('OUT', os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../apiserver/builtin/testdata/kube-validation-core-storage.json'))
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
def do(m, p, b, ct):
    req = urllib.request.Request(BASE + p, method=m, data=json.dumps(b).encode() if b is not None else None)
    req.add_header('Authorization', 'Bearer ' + TOKEN); req.add_header('Content-Type', ct)
    try:
        r = urllib.request.urlopen(req, context=ctx); return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
run = os.environ.get('RUN', str(random.randint(1000, 9999)))
only = os.environ.get('ONLY')
def rename(x, nsname):
    s = json.dumps(x).replace('valcore-', 'valcore-r%s-' % run).replace('valcore.', 'valcore-r%s.' % run)
    return json.loads(s.replace('/namespaces/val/', '/namespaces/%s/' % nsname).replace('"namespace": "val"', '"namespace": "%s"' % nsname))
def unrename(x, nsname):
    s = json.dumps(x).replace(nsname, 'val')
    return json.loads(s.replace('valcore-r%s-' % run, 'valcore-').replace('valcore-r%s.' % run, 'valcore.'))
CLUSTER = ('/persistentvolumes/', '/storageclasses/', '/csidrivers/', '/volumeattachments/')
def cleanup(paths):
    for p in paths:
        do('PATCH', p, {"metadata": {"finalizers": None}}, 'application/merge-patch+json')
        do('DELETE', p, None, 'application/json')
def drop_namespace(name):
    # the reference runs no namespace controller: empty the namespace, then finalize it
    for res in ('resourcequotas', 'limitranges', 'serviceaccounts', 'podtemplates', 'endpoints'):
        do('DELETE', '/api/v1/namespaces/%s/%s' % (name, res), None, 'application/json')
    do('DELETE', '/api/v1/namespaces/' + name, None, 'application/json')
    c, cur = do('GET', '/api/v1/namespaces/' + name, None, 'application/json')
    if c == 200:
        cur['spec']['finalizers'] = []
        do('PUT', '/api/v1/namespaces/%s/finalize' % name, cur, 'application/json')
out = []
for i, (name, setup, (m, p, b, ct)) in enumerate(CASES):
    if only and only not in name:
        continue
    nsname = 'valcore-r%s-%d' % (run, i)
    do('POST', '/api/v1/namespaces', {"metadata": {"name": nsname}}, 'application/json')
    made = []
    for sm, sp, sb, sct in setup:
        sp, sb = rename(sp + '/', nsname)[:-1], rename(sb, nsname)
        c, r = do(sm, sp, sb, sct)
        assert c < 300, (name, c, r)
        if sm == 'POST' and any(k in sp + '/' for k in CLUSTER):
            made.append(sp + '/' + r['metadata']['name'])
    rp, rb = rename(p + '/', nsname)[:-1], rename(b, nsname)
    code, resp = do(m, rp, rb, ct)
    if m == 'POST' and code < 300 and any(k in rp + '/' for k in CLUSTER):
        made.append(rp + '/' + resp['metadata']['name'])
    cleanup(made)
    drop_namespace(nsname)
    rec = {"name": name, "setup": [{"method": sm, "path": sp, "body": sb, "contentType": sct} for sm, sp, sb, sct in setup],
           "method": m, "path": p, "body": b, "contentType": ct, "code": code}
    if resp.get("kind") == "Status":
        resp = unrename(resp, nsname)
        rec["message"] = resp.get("message"); rec["reason"] = resp.get("reason")
        rec["causes"] = (resp.get("details") or {}).get("causes")
    out.append(rec)
    print(code, name, '|', rec.get("message", ""))
if not only:
    json.dump(out, open(OUT, 'w'), indent=1)
