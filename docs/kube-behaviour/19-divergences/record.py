# Records kube-apiserver 1.33's answers to the requests of cases.py as the
# replay cases of apiserver/builtin/testdata/kube-divergences.json.
# usage: REF=https://127.0.0.1:17103 python3 record.py OUT.json
import json, os, ssl, sys, time, urllib.request
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES

REF = os.environ.get("REF", "https://127.0.0.1:17103")
ctx = ssl._create_unverified_context()

def req(m, p, b, ct="application/json"):
    data = None
    if b is not None:
        data = b.encode() if isinstance(b, str) else json.dumps(b).encode()
    r = urllib.request.Request(REF + p, data=data, method=m, headers={
        "Authorization": "Bearer reference-admin-token", "Content-Type": ct, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(r, context=ctx) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())

req("POST", "/api/v1/namespaces", {"metadata": {"name": "val"}})
out = []
for i, c in enumerate(CASES):
    for s in c.get("setup", []):
        for attempt in range(20):  # a CRD's resources are served a moment after its create
            code, resp = req(s["method"], s["path"], s.get("body"), s.get("contentType", "application/json"))
            if code != 404:
                break
            time.sleep(0.5)
        assert code < 300, (c["name"], s, code, resp)
    time.sleep(0.2)
    code, resp = req(c["method"], c["path"], c.get("body"), c.get("contentType", "application/json"))
    rec = {"name": c["name"], "setup": c.get("setup", []), "method": c["method"], "path": c["path"],
           "body": c.get("body"), "code": code}
    if c.get("contentType"):
        rec["contentType"] = c["contentType"]
    if resp.get("kind") == "Status":
        rec["message"] = resp["message"]; rec["reason"] = resp["reason"]
        rec["causes"] = resp.get("details", {}).get("causes")
    print(code, c["name"], rec.get("message", "")[:160])
    out.append(rec)
json.dump(out, open(sys.argv[1], "w"), indent=1)
