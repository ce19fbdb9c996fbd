#!/usr/bin/env python3
# Groups the reports of a ThreadSanitizer log (.build-tsan/tsan.log) by the suppression entry
# that covers them and prints the ones none covers (docs/reliability.md, "ThreadSanitizer").
# Usage: python3 scripts/tsan-classify.py .build-tsan/tsan.log [scripts/tsan-suppressions.txt]
import re, sys, collections
log = open(sys.argv[1], errors='replace').read()
pats = []
for line in open(sys.argv[2] if len(sys.argv) > 2 else 'scripts/tsan-suppressions.txt'):
    line = line.strip()
    if not line or line.startswith('#'): continue
    kind, pat = line.split(':', 1)
    pats.append((kind, pat.lstrip('$')))
blocks = re.split(r'WARNING: ThreadSanitizer: ', log)[1:]
counts = collections.Counter(); unmatched = []
for b in blocks:
    body = b.split('SUMMARY: ThreadSanitizer')[0]
    title = b.splitlines()[0]
    hit = None
    for kind, pat in pats:
        if kind in ('race',) and pat in body: hit = pat; break
        # called_from_lib covers what an interceptor did for the library, so the library must
        # be the top frame of a stack, not anywhere in it: the hub's own races on the engine
        # thread have stacks that pass through JavaScriptCore and must still count as unmatched.
        tops = re.findall(r'\n    #0 [^\n]*', body)
        if kind == 'signal' and pat in body and 'signal' in title: hit = pat; break
        if kind == 'called_from_lib' and any(pat in t for t in tops): hit = pat; break
    if hit: counts[hit[:60]] += 1
    else: unmatched.append(title + '\n' + '\n'.join(l for l in body.splitlines() if re.match(r'\s+#[0-3] ', l))[:1500])
print(len(blocks), 'reports'); [print(' ', n, p) for p, n in counts.most_common()]
print(len(unmatched), 'unmatched')
for u in unmatched[:6]: print('----\n' + u)
