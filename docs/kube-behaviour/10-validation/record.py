import json, ssl, urllib.request, sys
sys.path.insert(0, '/tmp/b2val')
from cases import CASES
BASE = 'https://127.0.0.1:17643'
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
def do(m, p, b, ct):
    req = urllib.request.Request(BASE + p, method=m, data=json.dumps(b).encode() if b is not None else None)
    req.add_header('Authorization', 'Bearer reference-admin-token'); req.add_header('Content-Type', ct)
    try:
        r = urllib.request.urlopen(req, context=ctx); return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
import os, random
run = os.environ.get('RUN', str(random.randint(1000, 9999)))
def ns(x, i):
    return json.loads(json.dumps(x).replace('/namespaces/val/', '/namespaces/v%s-%d/' % (run, i)).replace('"namespace": "val"', '"namespace": "v%s-%d"' % (run, i)))
def cleanup():
    # cluster-scoped objects and addresses the cases reuse
    for path in ('/apis/certificates.k8s.io/v1/certificatesigningrequests/alice',
                 '/apis/rbac.authorization.k8s.io/v1/clusterroles/clusterRole-10'):
        do('DELETE', path, None, 'application/json')
    c, svcs = do('GET', '/api/v1/services', None, 'application/json')
    for it in svcs.get('items', []):
        if it['spec'].get('clusterIP') == '10.96.7.7':
            md = it['metadata']
            do('DELETE', '/api/v1/namespaces/%s/services/%s' % (md['namespace'], md['name']), None, 'application/json')
out = []
for i, (name, setup, (m, p, b, ct)) in enumerate(CASES):
    cleanup()
    nsname = 'v%s-%d' % (run, i)
    do('POST', '/api/v1/namespaces', {"metadata": {"name": nsname}}, 'application/json')
    setup = [(sm, ns(sp + '/', i)[:-1], ns(sb, i), sct) for sm, sp, sb, sct in setup]
    p, b = ns(p + '/', i)[:-1], ns(b, i)
    for sm, sp, sb, sct in setup:
        c, r = do(sm, sp, sb, sct)
        assert c < 300, (name, c, r)
    code, resp = do(m, p, b, ct)
    unns = lambda x: json.loads(json.dumps(x).replace(nsname, 'val'))
    setup = [(sm, unns(sp), unns(sb), sct) for sm, sp, sb, sct in setup]
    p, b = unns(p), unns(b)
    if resp.get("kind") == "Status":
        resp = unns(resp)
    rec = {"name": name, "setup": [{"method": sm, "path": sp, "body": sb, "contentType": sct} for sm, sp, sb, sct in setup],
           "method": m, "path": p, "body": b, "contentType": ct, "code": code}
    if resp.get("kind") == "Status":
        rec["message"] = resp.get("message"); rec["reason"] = resp.get("reason")
        rec["causes"] = (resp.get("details") or {}).get("causes")
    out.append(rec)
    print(code, name, '|', rec.get("message", "")[:200])
json.dump(out, open('/tmp/b2val/kube-validation.json', 'w'), indent=1)
