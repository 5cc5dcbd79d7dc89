# Sends cases.py's requests to a kube-apiserver and writes what it answered
# to apiserver/builtin/testdata/kube-validation-networking.json.
#   BASE=https://127.0.0.1:18510 TOKEN=reference-admin-token python3 record.py
import json, os, random, ssl, sys, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES, ICS, PCS, RCS
BASE = os.environ.get('BASE', 'https://127.0.0.1:18510')
TOKEN = os.environ.get('TOKEN', 'reference-admin-token')
OUT = os.environ.get('OUT', os.path.join(os.path.dirname(os.path.abspath(__file__)),
                     '../../../apiserver/builtin/testdata/kube-validation-networking.json'))
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
def do(m, p, b, ct):
    req = urllib.request.Request(BASE + p, method=m, data=json.dumps(b).encode() if b is not None else None)
    req.add_header('Authorization', 'Bearer ' + TOKEN); req.add_header('Content-Type', ct)
    try:
        r = urllib.request.urlopen(req, context=ctx); return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
run = os.environ.get('RUN', str(random.randint(1000, 9999)))
def cleanup():
    # the cluster-scoped objects the cases create (all named valnet-*)
    for base in (ICS, PCS, RCS):
        c, lst = do('GET', base, None, 'application/json')
        for it in lst.get('items', []):
            if it['metadata']['name'].startswith('valnet-'):
                do('DELETE', base + '/' + it['metadata']['name'], None, 'application/json')
def ns(x, name):
    return json.loads(json.dumps(x).replace('/namespaces/val/', '/namespaces/%s/' % name))
out, made = [], []
for i, (name, setup, (m, p, b, ct)) in enumerate(CASES):
    cleanup()
    nsname = 'valnet-%s-%d' % (run, i)
    if '/namespaces/val/' in p:
        do('POST', '/api/v1/namespaces', {"metadata": {"name": nsname}}, 'application/json'); made.append(nsname)
    for sm, sp, sb, sct in setup:
        c, r = do(sm, ns(sp + '/', nsname)[:-1], sb, sct)
        assert c < 300, (name, c, r)
    code, resp = do(m, ns(p + '/', nsname)[:-1], b, ct)
    resp = json.loads(json.dumps(resp).replace(nsname, 'val'))
    rec = {"name": name, "setup": [{"method": sm, "path": sp, "body": sb, "contentType": sct} for sm, sp, sb, sct in setup],
           "method": m, "path": p, "body": b, "contentType": ct, "code": code}
    if resp.get("kind") == "Status":
        rec["message"] = resp.get("message"); rec["reason"] = resp.get("reason")
        rec["causes"] = (resp.get("details") or {}).get("causes")
    out.append(rec)
    print(code, name, '|', rec.get("message", "")[:300])
cleanup()
for n in made:
    do('DELETE', '/api/v1/namespaces/' + n, None, 'application/json')
json.dump(out, open(OUT, 'w'), indent=1)
