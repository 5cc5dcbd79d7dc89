# Rewrites the table of recorded answers at the end of ../15-validation-batch-autoscaling-policy.md from the
# recorded JSON (run after record.py).
import json, os
HERE = os.path.dirname(os.path.abspath(__file__))
doc = os.path.join(HERE, '../15-validation-batch-autoscaling-policy.md')
s = open(doc).read()
head = s[:s.index('| case | request | code |')]
rows = ["| case | request | code | kube's message |", '| --- | --- | --- | --- |']
for c in json.load(open(os.path.join(HERE, '../../../apiserver/builtin/testdata/kube-validation-batch.json'))):
    m = (c.get('message') or '').replace('|', '\\|').replace('\n', ' ')
    rows.append('| %s | %s `%s` | %d | %s |' % (c['name'], c['method'], c['path'], c['code'], ('`' + m + '`') if m else ''))
open(doc, 'w').write(head + '\n'.join(rows) + '\n')
