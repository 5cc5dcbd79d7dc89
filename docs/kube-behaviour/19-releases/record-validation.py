"""Replays the validation cases recorded against kube-apiserver 1.33.13
(apiserver/builtin/testdata/kube-validation*.json) against a live
kube-apiserver of another release, and writes its answers, same names and
requests, to apiserver/builtin/testdata/kube-<release>-validation.json:

  REF_URL=https://127.0.0.1:17303 python3 record-validation.py 1.37

Each case runs as on a fresh server as far as a live one allows: the
namespace of its path is created first, its setup requests are sent (a 409
for something already there is fine), and what the case and its setup
created is deleted afterwards (namespaces are kept: without
kube-controller-manager they would stay Terminating)."""
import glob, json, os, ssl, sys, urllib.request

URL = os.environ["REF_URL"]
TOK = os.environ.get("REF_TOKEN", "reference-admin-token")
CTX = ssl._create_unverified_context()
HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.join(HERE, "..", "..", "..", "apiserver", "builtin", "testdata")


def req(method, path, body=None, ctype="application/json"):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(URL + path, data=data, method=method,
                               headers={"Authorization": "Bearer " + TOK, "Content-Type": ctype or "application/json"})
    try:
        with urllib.request.urlopen(r, context=CTX) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, {"raw": raw.decode(errors="replace")}


def namespace_of(path):
    parts = path.split("/")
    if "namespaces" in parts:
        i = parts.index("namespaces")
        if i + 1 < len(parts) and i + 2 < len(parts):
            return parts[i + 1]
    return None


def created_path(method, path, body):
    if method != "POST" or not isinstance(body, dict):
        return None
    name = (body.get("metadata") or {}).get("name")
    if not name or path.endswith("/namespaces"):
        return None
    return path + "/" + name


def main():
    release = sys.argv[1]
    cases = []
    for f in sorted(glob.glob(os.path.join(TESTDATA, "kube-validation*.json"))):
        cases += json.load(open(f))
    out = []
    for c in cases:
        for p in [c["path"]] + [s["path"] for s in c.get("setup") or []]:
            ns = namespace_of(p)
            if ns:
                req("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
        made = []
        for s in c.get("setup") or []:
            code, _ = req(s["method"], s["path"], s.get("body"), s.get("contentType"))
            made.append(created_path(s["method"], s["path"], s.get("body")))
        code, resp = req(c["method"], c["path"], c.get("body"), c.get("contentType"))
        if code < 300:
            made.append(created_path(c["method"], c["path"], c.get("body")))
        r = {k: v for k, v in c.items() if k not in ("code", "message", "reason", "causes")}
        r["code"] = code
        if resp.get("kind") == "Status":
            r["message"], r["reason"] = resp.get("message"), resp.get("reason")
            r["causes"] = (resp.get("details") or {}).get("causes")
        out.append(r)
        for p in reversed(made):
            if p:
                req("DELETE", p)
    path = os.path.join(TESTDATA, "kube-%s-validation.json" % release)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    changed = sum(1 for a, b in zip(cases, out)
                  if (a["code"], a.get("message"), a.get("causes")) != (b["code"], b.get("message"), b.get("causes")))
    print("%d cases, %d answered otherwise than 1.33" % (len(out), changed))


main()
