#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/igt/results.py - judge an igt run against the expectation lists.

Reads the logs scripts/igt/guest.sh left (LOGS/<gpu>/<binary>.log and
.status), turns them into one result per subtest, compares them with
tests/igt/<gpu>-fails.txt, -skips.txt and -flakes.txt, prints every
unexpected result and the totals, and ends with the suite's line
"N passed, N failed, N skipped" (failed: everything that fails the run).
With --update it rewrites the fails and skips lists from the run instead
(flakes are kept as they are: one run cannot tell a flake).  With
--subset the run ran chosen subtests only (make check's igt lane): a
listed subtest it did not run is neither judged nor reported, and
--update keeps its entry.

Results, named as igt's own runner names them: BINARY@SUBTEST,
BINARY@SUBTEST@DYNAMIC, or BINARY for a binary without subtests; status
Pass, Fail, Skip, Crash (a signal igt caught in a subtest, or the binary
died), Timeout (killed by the per-binary timeout while in that subtest,
or igt's own TIMEOUT).

The lists keep close to Mesa's deqp-runner baselines: one result a line,
"NAME,Status", "#" starts a comment, blank lines ignored; here the reason
is a comment on the same line ("NAME,Fail  # why").  Expected: Fail for
a name in fails.txt (Crash and Timeout too are listed there, to keep the
list complete, but always fail the run), Skip for a name in skips.txt,
anything but Crash/Timeout for a name in flakes.txt, Pass for all others.
Any other result is unexpected and fails the run, and so does a binary
the guest blamed for a kernel-log problem, leaked objects, or a timeout.

Reasons (--update): the first rule of tests/igt/reasons.txt whose regex
matches the message, or, for a regex starting with "^",
"NAME<TAB>Status<TAB>message" (message: what igt printed about
the failure or skip: the assertion or requirement with its file:line,
errno, or the signal); else the reason the list already gave that name
with the same status; else the message itself.
"""
import argparse
import os
import re
import sys

VERDICT = re.compile(r'^(Subtest|Dynamic subtest) (\S+): '
                     r'(SUCCESS|FAIL|SKIP|CRASH|TIMEOUT|NOTRUN)\b(?: \(([0-9.]+)s\))?')
START = re.compile(r'^Starting subtest: (\S+)')
START_DYN = re.compile(r'^Starting dynamic subtest: (\S+)')
PREFIX = re.compile(r'^\([^)]+\) (?:[\w/.-]+-)?(?:CRITICAL|WARNING|INFO|DEBUG): ')
STATUS = {'SUCCESS': 'Pass', 'FAIL': 'Fail', 'SKIP': 'Skip',
          'CRASH': 'Crash', 'TIMEOUT': 'Timeout', 'NOTRUN': 'Skip'}
BAD = ('Crash', 'Timeout')
# what igt prints that says nothing about why
NOISE = ('Stack trace', '#', 'Subtest ', 'Dynamic subtest ', 'Starting ',
         'IGT-Version', 'Using IGT_SRANDOM', 'Opened device', '****')
GPUS = {'945g': 'the 945G (8086:2772)', 'gm45': 'the GM45 (8086:2a42)'}


def summarize(lines):
    """The message of a failure or skip, from the lines igt printed."""
    where = cond = errno = signal = None
    other, after = [], []
    for raw in lines:
        line = PREFIX.sub('', raw).strip()
        if not line or line.startswith(NOISE):
            continue
        m = re.match(r'(?:Test assertion failure|Test requirement not met in) function '
                     r'(\S+), file (\S+):(\d+):?', line)
        if m:
            where = where or '%s:%s' % (os.path.basename(m.group(2)), m.group(3))
            continue
        m = re.match(r'(?:Failed assertion|Test requirement): (.*)', line)
        if m:
            cond = cond or m.group(1)
            continue
        m = re.match(r'Last errno: (\d+), (.*)', line)
        if m:
            errno = errno or '%s %s' % (m.group(1), m.group(2))
            continue
        m = re.match(r'Received signal (\w+)', line)
        if m:
            signal = signal or m.group(1)
            continue
        if line.startswith(('Test ', 'Last errno')):
            continue
        # a skip's own message follows its requirement; before it, the
        # subtest's description
        if where and len(after) < 1:
            after.append(line)
        elif not where and len(other) < 2:
            other.append(line)
    parts = []
    if signal:
        parts.append('signal ' + signal)
    if where:
        parts.append(where)
    if cond:
        parts.append(cond)
    parts.extend(after if where else other)
    if errno:
        parts.append('errno ' + errno)
    return ' | '.join(parts)[:300]


SECS = {}      # subtest: seconds igt measured, of the GPU being read
TIMES = {}     # gpu: SECS


def parse_log(binary, text, rc, killed):
    """{name: (status, message)} of one binary's log."""
    res = {}
    sub = dyn = None
    pending = []            # lines since the last verdict (a dynamic one's)
    subbuf = []             # lines of the current subtest
    outside = []            # lines outside any subtest since the last one
    fixture = []            # the last stretch of those (a fixture's failure)
    saw_subtest = False
    for line in text.splitlines():
        m = START.match(line)
        if m:
            fixture = outside or fixture
            outside = []
            sub, dyn, pending, subbuf, saw_subtest = m.group(1), None, [], [], True
            continue
        m = START_DYN.match(line)
        if m:
            dyn, pending = m.group(1), []
            continue
        m = VERDICT.match(line)
        if not m:
            pending.append(line)
            (subbuf if sub else outside).append(line)
            continue
        kind, name, verdict, secs = m.groups()
        saw_subtest = True
        status = STATUS[verdict]
        msg = ''
        if kind == 'Dynamic subtest':
            full = '%s@%s@%s' % (binary, sub, name)
            if status != 'Pass':
                msg = summarize(pending)
            dyn, pending = None, []
        else:
            full = '%s@%s' % (binary, name)
            if secs:
                SECS[full] = float(secs)
            if status != 'Pass':
                # a subtest skipped or failed by an earlier fixture has
                # no lines of its own
                msg = summarize(subbuf if sub else []) or summarize(outside or fixture)
            sub, pending, subbuf = None, [], []
        res[full] = (status, msg)
    # a subtest (or the whole binary) that never reported
    if killed or rc not in (0, 77, 98, 78):
        status = 'Timeout' if killed else 'Crash'
        msg = 'killed by the per-binary timeout' if killed else 'exit %s' % rc
        msg = (summarize(pending) + ' | ' + msg).strip(' |')
        if sub:
            name = '%s@%s' % (binary, sub)
            if dyn:
                res['%s@%s' % (name, dyn)] = (status, msg)
            res[name] = (status, msg)
        elif not saw_subtest or not res:
            res[binary] = (status, msg)
        else:
            res[binary + '@<after last subtest>'] = (status, msg)
    elif not saw_subtest:
        status = {0: 'Pass', 77: 'Skip', 78: 'Timeout'}.get(rc, 'Fail')
        res[binary] = (status, summarize(pending) if status != 'Pass' else '')
    return res


def read_run(logdir):
    """{gpu: {name: (status, msg)}}, {gpu: {binary: (rc, secs, why)}}."""
    results, binaries = {}, {}
    for gpu in sorted(os.listdir(logdir)):
        d = os.path.join(logdir, gpu)
        if not os.path.isdir(d):
            continue
        results[gpu], binaries[gpu] = {}, {}
        for f in sorted(os.listdir(d)):
            if not f.endswith('.status'):
                continue
            b = f[:-len('.status')]
            with open(os.path.join(d, f)) as fh:
                st = fh.read().split(None, 2)
            rc = int(st[0]) if st and st[0].lstrip('-').isdigit() else -1
            secs = int(st[1]) if len(st) > 1 else 0
            why = st[2].strip() if len(st) > 2 else ''
            binaries[gpu][b] = (rc, secs, why)
            try:
                with open(os.path.join(d, b + '.log'), errors='replace') as fh:
                    text = fh.read()
            except OSError:
                text = ''
            results[gpu].update(parse_log(b, text, rc, 'timeout' in why))
        TIMES[gpu] = dict(SECS)
        SECS.clear()
    return results, binaries


def read_list(path):
    """{name: (status, reason)} of an expectation list."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as fh:
        for line in fh:
            body, _, reason = line.partition('#')
            body = body.strip()
            if not body:
                continue
            name, _, status = body.partition(',')
            out[name.strip()] = (status.strip() or 'Fail', reason.strip())
    return out


def read_rules(path):
    rules = []
    if not os.path.exists(path):
        return rules
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            pat, sep, reason = line.rstrip('\n').partition(' => ')
            if not sep:
                sys.exit('%s:%d: no " => " in the rule' % (path, n))
            rules.append((re.compile(pat), reason.strip()))
    return rules


def reason_for(name, status, msg, rules, old):
    key = '%s\t%s\t%s' % (name, status, msg)
    for pat, reason in rules:
        if pat.search(key if pat.pattern.startswith('^') else msg):
            return reason
    if name in old and old[name][0] == status and old[name][1]:
        return old[name][1]
    return msg or 'no message (see the log)'


def write_list(path, gpu, what, entries):
    """entries: {name: (status, reason)}, written grouped by reason."""
    with open(path, 'w') as fh:
        fh.write('# igt 1.27.1 on %s: %s.\n' % (GPUS.get(gpu, gpu), what))
        fh.write('# NAME,Status  # reason  (Documentation/testing.rst, "igt");\n')
        fh.write('# regenerated by make igt IGT_UPDATE=1 with tests/igt/reasons.txt.\n')
        last = None
        for name, (status, reason) in sorted(entries.items(),
                                             key=lambda kv: (kv[1][1], kv[0])):
            if reason != last:
                fh.write('\n')
                last = reason
            fh.write('%s,%s  # %s\n' % (name, status, reason))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--logs', required=True, help='the guest\'s igt/ directory')
    ap.add_argument('--lists', required=True, help='tests/igt')
    ap.add_argument('--update', action='store_true')
    ap.add_argument('--subset', action='store_true',
                    help='the run ran chosen subtests: keep and ignore the others')
    ap.add_argument('--slowest', type=int, default=10)
    args = ap.parse_args()

    results, binaries = read_run(args.logs)
    rules = read_rules(os.path.join(args.lists, 'reasons.txt'))
    total_p = total_f = total_s = 0
    for gpu in sorted(results):
        res = results[gpu]
        lists = {k: read_list(os.path.join(args.lists, '%s-%s.txt' % (gpu, k)))
                 for k in ('fails', 'skips', 'flakes')}
        ran = set(binaries[gpu])
        if args.update:
            fails, skips = {}, {}
            old = dict(lists['skips'])
            old.update(lists['fails'])
            for name, (status, msg) in res.items():
                if name in lists['flakes'] and status not in BAD:
                    continue
                if status == 'Pass':
                    continue
                entry = (status, reason_for(name, status, msg, rules, old))
                (skips if status == 'Skip' else fails)[name] = entry
            # what this run did not run keeps its entries
            for kind, new in (('fails', fails), ('skips', skips)):
                for name, entry in lists[kind].items():
                    if name.split('@')[0] not in ran or \
                            (args.subset and name not in res):
                        new[name] = entry
            write_list(os.path.join(args.lists, '%s-fails.txt' % gpu), gpu,
                       'subtests expected to fail (Crash and Timeout fail the run '
                       'all the same)', fails)
            write_list(os.path.join(args.lists, '%s-skips.txt' % gpu), gpu,
                       'subtests expected to skip ("hardware:" the part lacks it; '
                       '"TO FIX:" we lack what upstream has)', skips)
            lists['fails'], lists['skips'] = read_list(
                os.path.join(args.lists, '%s-fails.txt' % gpu)), read_list(
                os.path.join(args.lists, '%s-skips.txt' % gpu))
            print('igt: %s: wrote %d fails, %d skips' % (gpu, len(fails), len(skips)))

        count = {}
        unexpected = []
        for name in sorted(res):
            status, msg = res[name]
            if name in lists['flakes'] and status not in BAD:
                want = status
            elif name in lists['fails']:
                want = lists['fails'][name][0]
            elif name in lists['skips']:
                want = 'Skip'
            else:
                want = 'Pass'
            ok = status == want and status not in BAD
            key = (status, 'expected' if ok else 'unexpected')
            count[key] = count.get(key, 0) + 1
            if not ok:
                unexpected.append('%s@%s: %s (expected %s)%s' % (
                    gpu, name, status, want, ': ' + msg if msg else ''))
        for kind in () if args.subset else ('fails', 'skips'):
            for name in sorted(lists[kind]):
                if name not in res and name.split('@')[0] in ran and \
                        '@<after' not in name:
                    print('igt: note: %s@%s is in %s-%s.txt but did not run'
                          % (gpu, name, gpu, kind))
        for b, (rc, secs, why) in sorted(binaries[gpu].items()):
            if why:
                unexpected.append('%s@%s: the binary: %s (exit %d)' % (gpu, b, why, rc))
        for u in unexpected:
            print('UNEXPECTED ' + u)
        parts = []
        for st in ('Pass', 'Fail', 'Skip', 'Crash', 'Timeout'):
            e, u = count.get((st, 'expected'), 0), count.get((st, 'unexpected'), 0)
            parts.append('%s %d (%d expected, %d unexpected)' % (st.lower(), e + u, e, u))
        secs = sum(s for _, s, _ in binaries[gpu].values())
        print('igt: %s: %d binaries, %d results in %d s: %s' % (
            gpu, len(binaries[gpu]), len(res), secs, ', '.join(parts)))
        slow = sorted(binaries[gpu].items(), key=lambda kv: -kv[1][1])[:args.slowest]
        print('igt: %s: slowest: %s' % (gpu, ', '.join(
            '%s %ds' % (b, s) for b, (_, s, _) in slow)))
        slow = sorted(((t, n) for n, t in TIMES[gpu].items()), reverse=True)
        print('igt: %s: slowest subtests: %s' % (gpu, ', '.join(
            '%s %.0fs' % (n, t) for t, n in slow[:args.slowest])))
        total_p += count.get(('Pass', 'expected'), 0)
        total_s += count.get(('Skip', 'expected'), 0)
        total_f += len(unexpected)
    print('%d passed, %d failed, %d skipped' % (total_p, total_f, total_s))
    return 1 if total_f else 0


if __name__ == '__main__':
    sys.exit(main())
