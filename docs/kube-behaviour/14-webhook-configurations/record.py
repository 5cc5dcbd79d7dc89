# Replays cases.py against a kube-apiserver (REF_BASE, default https://127.0.0.1:18810) and writes what it
# answered to kube-webhookconfigurations.json (copy it to apiserver/builtin/testdata/).
import json, os, ssl, sys, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES, V, M
BASE = os.environ.get('REF_BASE', 'https://127.0.0.1:18810')
TOKEN = os.environ.get('REF_TOKEN', 'reference-admin-token')
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
def do(m, p, b, ct):
    req = urllib.request.Request(BASE + p, method=m, data=json.dumps(b).encode() if b is not None else None)
    req.add_header('Authorization', 'Bearer ' + TOKEN); req.add_header('Content-Type', ct)
    try:
        r = urllib.request.urlopen(req, context=ctx); return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
def cleanup():
    for path in (V, M):
        do('DELETE', path + '/probe', None, 'application/json')
out = []
for name, setup, (m, p, b, ct) in CASES:
    cleanup()
    for sm, sp, sb, sct in setup:
        c, r = do(sm, sp, sb, sct)
        assert c < 300, (name, c, r)
    code, resp = do(m, p, b, ct)
    rec = {"name": name, "setup": [{"method": sm, "path": sp, "body": sb, "contentType": sct} for sm, sp, sb, sct in setup],
           "method": m, "path": p, "body": b, "contentType": ct, "code": code}
    if resp.get("kind") == "Status":
        rec["message"] = resp.get("message"); rec["reason"] = resp.get("reason")
        rec["causes"] = (resp.get("details") or {}).get("causes")
    out.append(rec)
    print(code, name, '|', rec.get("message", "")[:3000])
cleanup()
json.dump(out, open(os.environ.get('OUT', 'kube-webhookconfigurations.json'), 'w'), indent=1)
