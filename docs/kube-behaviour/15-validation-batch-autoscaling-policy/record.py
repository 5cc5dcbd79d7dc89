# Sends cases.py's requests to a reference kube-apiserver, each case in a namespace of its own (valbatch-RUN-N,
# emptied, deleted and finalized afterwards; CLEAN=1 drops every valbatch-* namespace), and writes what it answered (all cases, or those whose names hold an argument) to apiserver/builtin/testdata/kube-validation-batch.json, the namespace
# shown as "val". BASE (default https://127.0.0.1:18510) and TOKEN (default reference-admin-token) name the server.
import json, os, ssl, sys, urllib.request
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cases import CASES
BASE = os.environ.get('BASE', 'https://127.0.0.1:18510')
TOKEN = os.environ.get('TOKEN', 'reference-admin-token')
OUT = os.path.join(HERE, '../../../apiserver/builtin/testdata/kube-validation-batch.json')
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
def do(m, p, b, ct='application/json'):
    req = urllib.request.Request(BASE + p, method=m, data=json.dumps(b).encode() if b is not None else None)
    req.add_header('Authorization', 'Bearer ' + TOKEN); req.add_header('Content-Type', ct)
    try:
        r = urllib.request.urlopen(req, context=ctx); return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
def drop_namespace(ns):
    # the reference runs no controllers: empty the namespace, delete it and
    # finalize it ourselves
    for coll in ('/apis/batch/v1/namespaces/%s/cronjobs', '/apis/batch/v1/namespaces/%s/jobs',
                 '/apis/autoscaling/v2/namespaces/%s/horizontalpodautoscalers',
                 '/apis/policy/v1/namespaces/%s/poddisruptionbudgets'):
        do('DELETE', coll % ns, None)
    do('DELETE', '/api/v1/namespaces/' + ns, None)
    c, cur = do('GET', '/api/v1/namespaces/' + ns, None)
    if c == 200:
        cur['spec']['finalizers'] = []
        do('PUT', '/api/v1/namespaces/%s/finalize' % ns, cur)
if os.environ.get('CLEAN'):
    c, l = do('GET', '/api/v1/namespaces', None)
    for it in l['items']:
        if it['metadata']['name'].startswith('valbatch-'):
            drop_namespace(it['metadata']['name'])
    sys.exit(0)
run = os.environ.get('RUN', str(os.getpid()))
only = sys.argv[1:]
out = []
for i, (name, setup, (m, p, b, ct)) in enumerate(CASES):
    if only and not any(o in name for o in only):
        continue
    nsname = 'valbatch-%s-%d' % (run, i)
    to = lambda x: json.loads(json.dumps(x).replace('/namespaces/val/', '/namespaces/%s/' % nsname))
    back = lambda x: json.loads(json.dumps(x).replace(nsname, 'val'))
    do('POST', '/api/v1/namespaces', {"metadata": {"name": nsname}})
    for sm, sp, sb, sct in setup:
        c, r = do(sm, to(sp), sb, sct)
        assert c < 300, (name, c, r)
    code, resp = do(m, to(p), b, ct)
    drop_namespace(nsname)
    rec = {"name": name, "setup": [{"method": sm, "path": sp, "body": sb, "contentType": sct} for sm, sp, sb, sct in setup],
           "method": m, "path": p, "body": b, "contentType": ct, "code": code}
    if resp.get("kind") == "Status":
        resp = back(resp)
        rec["message"] = resp.get("message"); rec["reason"] = resp.get("reason")
        rec["causes"] = (resp.get("details") or {}).get("causes")
    out.append(rec)
    print(code, name, '|', rec.get("message", "")[:400])
if only:
    # record just these cases into the file, in cases.py's order
    names = [c[0] for c in CASES]
    old = {r["name"]: r for r in json.load(open(OUT)) if r["name"] in names}
    old.update({r["name"]: r for r in out})
    out = [old[n] for n in names if n in old]
json.dump(out, open(OUT, 'w'), indent=1)
