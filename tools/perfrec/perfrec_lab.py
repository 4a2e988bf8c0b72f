#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Profiles from the boards of a labgrid lab, and a regression gate per board

"""Record perfrec profiles on the boards of a labgrid lab, and gate them.

Usage:
    perfrec_lab.py -o OUT [--jobs N] --build [PLACE=]DIR...
                   [--workload [PLACE=]CMD]... [--console-init [PLACE=]CMD]...
                   [--record-opts OPTS | --boot]
                   [--baseline DIR [--fail-above PCT] [--normalize]]
                   [--verify-dump] [--boot-timeout S] [--command-timeout S]
                   [--reserve-timeout S] [--prompt TEXT]
                   PLACE|KEY=VALUE...

Each argument names a place, or selects the places whose tags have KEY=VALUE
(all of them, for several KEY=VALUE in one argument joined by ','). For each
place, with N at a time (--jobs, default: the CPUs), it:

1. acquires the place (labgrid-client acquire); a place held by someone else
   fails at once, within --reserve-timeout at most, naming the place and its
   owner;
2. powers the board off and on through the place's power driver and waits
   --boot-timeout seconds at most for U-Boot's autoboot countdown (which it
   stops) or prompt, on the place's console; --console-init's command goes
   next (say 'setenv stdout serial' for a board whose stdout is its display,
   as the Raspberry Pi's is), then an echo that must come back at a prompt;
3. runs 'perfrec record OPTS -- WORKLOAD' (--record-opts, --workload; default
   'crc32 0 0x1000000'; with --boot, nothing: a build with CONFIG_PERFREC_BOOT
   has recorded its own boot, from board_init_f() to the prompt) and
   'perfrec dump -z', and takes the perf.data out of
   the console with perfrec_extract.py's checks (line CRCs, length, CRC-32).
   A dump those checks reject (a console that dropped bytes) is dumped once
   more; with --verify-dump a good dump is dumped again and must be the same
   bytes;
4. writes OUT/PLACE/perf.data, OUT/PLACE/symfs/ (perfrec_symfs.py, from the
   build's ELF: --build PLACE=DIR, else the --build DIR without PLACE=),
   OUT/PLACE/report.txt (perf report's functions) and OUT/PLACE/console.log;
5. with --baseline, runs perfrec_diff.py against BASELINE/PLACE/ (OUT/PLACE/
   diff.txt); with --fail-above, a function that grew by more than PCT
   percent of the baseline's events fails the gate, named with its board.
   --normalize compares shares (the new recording scaled to the baseline's
   total), for boards whose totals follow the host's speed (QEMU without
   -icount, a timer event);
6. powers the board off and releases the place, on failure and on Ctrl-C
   too.

The lab comes from labgrid's environment: LG_COORDINATOR and LG_ENV, an
environment file whose target 'main' names its place as '!template
$LG_PLACE' with a power driver and a console (doc/usage/cmd/perfrec.rst:
"Profiling a board lab"). OUT/summary.txt holds one line per place.

Exit status: 0 all went well, 1 a regression (the gate failed), 2 a board or
console failure, 3 a lab or reservation error (the largest that happened;
one line on stderr per problem, naming the place), 130 after Ctrl-C.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
# pylint: disable-next=wrong-import-position
from perfrec_extract import extract  # noqa: E402
# pylint: disable-next=wrong-import-position
from perfrec_report import top_function  # noqa: E402
# pylint: disable-next=wrong-import-position
from perfrec_diff import read_report  # noqa: E402

OK, REGRESSION, BOARD, LAB = 0, 1, 2, 3
OUTCOME = ('ok', 'REGRESSION', 'FAILED', 'LAB ERROR')
WORKLOAD = 'crc32 0 0x1000000'
AUTOBOOT = 'Hit any key to stop autoboot'
READY = 'perfrec-lab-ready'
END_RE = r'perfrec-end [0-9a-f]{8} [0-9]+'


def say(msg):
    """One line on stderr"""
    print(f'perfrec_lab: {msg}', file=sys.stderr, flush=True)


class PlaceError(Exception):
    """A board or its console failed (exit 2)"""


class LabError(Exception):
    """The lab did not answer as it should (exit 3)"""


def client(args, timeout, place=None):
    """labgrid-client @args (LG_COORDINATOR from the environment); return the
    CompletedProcess, or None when it did not answer within @timeout"""
    env = dict(os.environ)
    env.pop('LG_ENV', None)     # its !template $LG_PLACE needs no place here
    cmd = ['labgrid-client'] + (['-p', place] if place else []) + args
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env=env, check=False)
    except subprocess.TimeoutExpired:
        return None


def last_line(proc):
    """The last line labgrid-client wrote (its error)"""
    lines = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
    return lines[-1] if lines else f'exit {proc.returncode}'


def places_with_tags(timeout):
    """{place: {tag: value}} from labgrid-client -v places"""
    proc = client(['-v', 'places'], timeout)
    if proc is None or proc.returncode:
        why = f'no answer within {timeout} s' if proc is None else last_line(proc)
        raise LabError(f'the coordinator did not list its places: {why}')
    places, name = {}, None
    for line in proc.stdout.splitlines():
        mat = re.match(r"Place '([^']+)':", line)
        if mat:
            name = mat.group(1)
            places[name] = {}
        mat = re.match(r'\s+tags:\s*(.*)', line)
        if mat and name:
            places[name] = dict(item.split('=', 1) for item in mat.group(1).split(', ')
                                if '=' in item)
    return places


def select_places(wanted, timeout):
    """The place names @wanted selects (names, or KEY=VALUE[,KEY=VALUE] tags)"""
    known = places_with_tags(timeout)
    chosen = []
    for want in wanted:
        if '=' not in want:
            if want not in known:
                raise LabError(f"no place '{want}' in the lab "
                               f"({', '.join(sorted(known)) or 'none'})")
            found = [want]
        else:
            tags = dict(item.split('=', 1) for item in want.split(','))
            found = sorted(name for name, have in known.items()
                           if all(have.get(k) == v for k, v in tags.items()))
            if not found:
                raise LabError(f"no place has the tags '{want}'")
        chosen += [name for name in found if name not in chosen]
    return chosen


def per_place(values):
    """{place or None: value} from [PLACE=]VALUE options"""
    out = {}
    for value in values:
        mat = re.match(r'([A-Za-z0-9_.-]+)=(.*)\Z', value)
        if mat:
            out[mat.group(1)] = mat.group(2)
        else:
            out[None] = value
    return out


def for_place(values, place, default=None):
    """@place's value of [PLACE=]VALUE options, else the one without PLACE="""
    values = per_place(values)
    return values.get(place, values.get(None, default))


def acquire(place, timeout):
    """Acquire @place; None, or why not (naming its owner)"""
    proc = client(['acquire'], timeout, place)
    if proc is None:
        return f'no answer from the coordinator within {timeout} s'
    if proc.returncode:
        line = last_line(proc)
        mat = re.search(r'already acquired by (\S+?)\.?( |$)', line)
        return f'held by {mat.group(1)}' if mat else line
    return None


def release(place, timeout):
    """Release @place (ours); None, or why not"""
    proc = client(['release'], timeout, place)
    if proc is None:
        return f'no answer from the coordinator within {timeout} s'
    return last_line(proc) if proc.returncode else None


class Console:
    """U-Boot's prompt on a place's console (labgrid's ConsoleProtocol)"""

    def __init__(self, driver, log, prompt):
        self.driver = driver
        self.log = log
        # At a line's start: output may hold it ('crc32 ... ==> 1234')
        self.prompt_re = ('\n' + re.escape(prompt)).encode()

    def note(self, text):
        """A line of the tool's own in console.log"""
        self.log.write(f'[perfrec_lab: {text}]\n')
        self.log.flush()

    def expect(self, patterns, timeout, what):
        """Wait for one of @patterns; return (index, text up to its end)"""
        # pylint: disable-next=import-outside-toplevel,import-error
        from labgrid.driver.exception import ExecutionError
        import pexpect  # pylint: disable=import-outside-toplevel,import-error
        try:
            index, before, match, _ = self.driver.expect(patterns, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF, ExecutionError) as exc:
            seen = getattr(getattr(self.driver, '_expect', None), 'before', None)
            if isinstance(seen, bytes):
                self.log.write(seen.decode(errors='replace'))
            self.note(f'{what}: nothing within {timeout} s')
            raise PlaceError(f'{what}: nothing within {timeout} s') from exc
        text = before.decode(errors='replace') + match.group(0).decode(errors='replace')
        self.log.write(text)
        self.log.flush()
        return index, text

    def run(self, cmd, timeout):
        """Run @cmd at the prompt; return its output"""
        self.note(cmd)
        self.driver.sendline(cmd)
        return self.expect([self.prompt_re], timeout, f"'{cmd}'")[1].replace('\r', '')

    def drain(self):
        """Read what the console holds (an old boot's tail) and drop it"""
        try:
            while self.driver.read(65536, timeout=0.2):
                pass
        except Exception:   # pylint: disable=broad-except
            pass


def prompt_of(build):
    """The build's CONFIG_SYS_PROMPT (as test/py takes it), else '=> '"""
    try:
        with open(os.path.join(build, '.config'), encoding='utf-8') as inf:
            mat = re.search(r'^CONFIG_SYS_PROMPT="(.*)"$', inf.read(), re.M)
    except OSError:
        mat = None
    return mat.group(1).replace('\\"', '"').replace('\\\\', '\\') if mat else '=> '


def boot(console, power, timeout, init):
    """Power the board on, stop autoboot, send @init; wait for the prompt"""
    power.off()
    console.drain()
    power.on()
    index, _ = console.expect([AUTOBOOT.encode(), console.prompt_re], timeout,
                              "U-Boot's autoboot countdown or prompt after power-on")
    if index == 0:
        console.driver.write(b' ')
    if init:
        # Sent as soon as U-Boot reads: its prompt may be on another stdout
        console.note(init)
        console.driver.sendline(init)
    console.driver.sendline(f'echo {READY}')
    console.expect([rf'\n{READY}\r?{console.prompt_re.decode()}'.encode()], timeout,
                   "U-Boot's prompt after stopping autoboot")


def recording(console, workload, opts, timeout):
    """perfrec record OPTS -- @workload at the prompt; PlaceError if it failed"""
    # Several commands: one quoted argument, or the shell would run all but
    # the first after the recording
    if ';' in workload:
        workload = '"' + workload.replace('"', '\\"') + '"'
    cmd = f'perfrec record {opts} -- {workload}'
    text = console.run(cmd, timeout)
    if 'perfrec-rc=0\n' not in console.run('echo perfrec-rc=$?', 10):
        lines = [line for line in text.splitlines()[1:] if line.strip()]
        raise PlaceError(f"'{cmd}' failed: {lines[-1] if lines else 'no output'}")


def dump(console, timeout):
    """perfrec dump -z through the console; return (perf.data bytes or None,
    the extractor's problems); PlaceError when there is nothing to dump"""
    console.note('perfrec dump -z')
    console.driver.sendline('perfrec dump -z')
    try:
        index, text = console.expect([END_RE.encode(), console.prompt_re], timeout,
                                     'perfrec dump')
        if index == 0:
            console.expect([console.prompt_re], timeout, 'the prompt after a dump')
    except PlaceError as exc:
        # Lost with the dump's end: the prompt again, then the retry
        console.driver.sendline('')
        console.expect([console.prompt_re], timeout, 'the prompt')
        return None, [str(exc)]
    if index == 1 and 'perfrec-begin' not in text:
        lines = [line for line in text.replace('\r', '').splitlines()[1:] if line.strip()]
        raise PlaceError("'perfrec dump -z' dumped nothing: " +
                         (lines[-1] if lines else 'no output'))
    recordings, problems = extract(text.replace('\r', ''))
    if not recordings or not recordings[-1].ok or recordings[-1].data is None:
        return None, [str(p) for p in problems] or ['no recording in the dump']
    return recordings[-1].data, []


def dumped(console, place, timeout, verify):
    """The recording's perf.data, dumped once more if the extractor rejects
    the first dump (and, with @verify, again to compare); return (bytes, note)"""
    data, problems = dump(console, timeout)
    note = ''
    if data is None:
        say(f'{place}: the dump was damaged ({problems[0]}); dumping again')
        note = f', dumped twice (the first damaged: {problems[0]})'
        data, problems = dump(console, timeout)
        if data is None:
            raise PlaceError(f'the dump was damaged twice: {problems[0]}')
    if verify:
        again, problems = dump(console, timeout)
        if again != data:
            why = problems[0] if problems else f'{len(data)} and {len(again)} bytes'
            raise PlaceError(f'a second dump of the recording differs ({why})')
        note += f', a second dump the same {len(data)} bytes'
    return data, note


def post(out, build):
    """symfs/ and report.txt for OUT/PLACE/perf.data; return a summary"""
    proc = subprocess.run([sys.executable, os.path.join(TOOLS, 'perfrec_symfs.py'),
                           os.path.join(build, 'u-boot'), os.path.join(out, 'symfs')],
                          capture_output=True, text=True, check=False)
    if proc.returncode:
        raise PlaceError(f'symfs: {proc.stderr.strip() or proc.stdout.strip()}')
    proc = subprocess.run(['perf', 'report', '-i', os.path.join(out, 'perf.data'), '--stdio',
                           '--no-children', '--sort', 'sym', '-F', 'overhead,sym',
                           '--symfs', os.path.join(out, 'symfs')],
                          capture_output=True, text=True, check=False)
    if proc.returncode:
        raise PlaceError(f'perf report: {proc.stderr.strip().splitlines()[-1:]}')
    with open(os.path.join(out, 'report.txt'), 'w', encoding='utf-8') as outf:
        outf.write(proc.stdout)
    top = top_function(proc.stdout)
    samples = re.search(r'^# Samples: (\S+)', proc.stdout, re.M)
    if not top:
        raise PlaceError(f'perf report names no function in {out}/perf.data')
    return f"{samples.group(1) if samples else '?'} samples, hottest {top[1]} ({top[0]}%)"


def gate(args, place, out):
    """perfrec_diff.py against the baseline; return (code, summary)"""
    base = os.path.join(args.baseline, place)
    if not os.path.exists(os.path.join(base, 'perf.data')):
        raise PlaceError(f'no baseline {base}/perf.data')
    cmd = [sys.executable, os.path.join(TOOLS, 'perfrec_diff.py'),
           os.path.join(base, 'perf.data'), os.path.join(base, 'symfs'),
           os.path.join(out, 'perf.data'), os.path.join(out, 'symfs'), '-n', '20']
    if args.fail_above is not None:
        cmd += ['--fail-above', str(args.fail_above)]
    if args.normalize:
        cmd += ['--normalize']
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    with open(os.path.join(out, 'diff.txt'), 'w', encoding='utf-8') as outf:
        outf.write(proc.stdout + proc.stderr)
    if proc.returncode == 1:
        return REGRESSION, '; '.join(line.strip() for line in proc.stderr.splitlines()
                                     if line.strip())
    if proc.returncode:
        raise PlaceError(f'perfrec_diff.py: {proc.stderr.strip()}')
    grew = [(row[3], name) for rows, _ in read_report(proc.stdout).values()
            for name, row in rows.items() if row[2] > 0]
    top = max(grew, default=None)
    return OK, 'gate passed, ' + (f'largest growth {top[1]} +{top[0]:.2f}%' if top
                                  else 'no function grew')


def record(args, place, build):
    """One board, acquired: boot, record, dump, post; return (code, summary)"""
    # pylint: disable-next=import-outside-toplevel,import-error
    from labgrid import Environment
    os.environ['LG_PLACE'] = place
    out = os.path.join(args.out, place)
    os.makedirs(out, exist_ok=True)
    target = Environment(config_file=os.environ['LG_ENV']).get_target('main')
    power = target.get_driver('PowerProtocol')
    with open(os.path.join(out, 'console.log'), 'w', encoding='utf-8') as log:
        console = Console(target.get_driver('ConsoleProtocol'), log,
                          args.prompt or prompt_of(build))
        try:
            boot(console, power, args.boot_timeout, for_place(args.console_init, place))
            if not args.boot:
                recording(console, for_place(args.workload, place, WORKLOAD),
                          args.record_opts, args.command_timeout)
            data, note = dumped(console, place, args.command_timeout, args.verify_dump)
        finally:
            try:
                power.off()
            finally:
                target.deactivate_all_drivers()
    with open(os.path.join(out, 'perf.data'), 'wb') as outf:
        outf.write(data)
    summary = post(out, build) + note
    if args.baseline:
        code, gated = gate(args, place, out)
        return code, f'{summary}; {gated}'
    return OK, summary


def worker(args):
    """--worker PLACE: record one acquired place; print its result as JSON"""
    place = args.worker
    try:
        code, summary = record(args, place, for_place(args.build, place))
    except PlaceError as exc:
        code, summary = BOARD, str(exc)
    except KeyboardInterrupt:
        code, summary = 130, 'stopped'
    except Exception as exc:    # pylint: disable=broad-except
        # labgrid's own errors (a console that closed, a power driver that
        # failed): this board's, one line
        code, summary = BOARD, f'{type(exc).__name__}: {str(exc).splitlines()[:1]}'
    print(json.dumps({'place': place, 'code': code, 'summary': summary}), flush=True)
    return 0


# The places this run holds (released on every way out)
acquired = []


def finish(place, proc, timeout):
    """A worker's result for @place, once it ended; the place released"""
    lines = proc.stdout.read().strip().splitlines()
    try:
        res = json.loads(lines[-1])
        result = (res['code'], res['summary'])
    except (IndexError, ValueError, KeyError):
        result = (BOARD, f'the worker ended ({proc.returncode}) without a result')
    why = release(place, timeout)
    acquired.remove(place)
    if why:
        result = (LAB, f'release: {why}')
    say(f'{place}: {result[1]}')
    return result


def run_places(args, places):
    """Run a worker per place, --jobs at a time; return {place: (code, summary)}"""
    results, running, queue = {}, {}, list(places)
    try:
        while queue or running:
            while queue and len(running) < args.jobs:
                place = queue.pop(0)
                why = acquire(place, args.reserve_timeout)
                if why:
                    results[place] = (LAB, why)
                    say(f'{place}: {why}')
                    continue
                acquired.append(place)
                say(f'{place}: acquired; powering on')
                # pylint: disable-next=consider-using-with
                running[place] = subprocess.Popen(
                    [sys.executable, os.path.abspath(__file__), '--worker', place] +
                    sys.argv[1:],
                    stdout=subprocess.PIPE, text=True)
            for place, proc in list(running.items()):
                if proc.poll() is not None:
                    del running[place]
                    results[place] = finish(place, proc, args.reserve_timeout)
            time.sleep(0.1)
    except KeyboardInterrupt:
        for proc in running.values():
            try:
                proc.wait(60)
            except (subprocess.TimeoutExpired, KeyboardInterrupt):
                proc.kill()
        raise
    return results


def parse_args(argv):
    """The command line"""
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('places', nargs='*', metavar='PLACE|KEY=VALUE')
    parser.add_argument('-o', '--out', required=True)
    parser.add_argument('-j', '--jobs', type=int, default=os.cpu_count())
    parser.add_argument('--build', action='append', default=[], metavar='[PLACE=]DIR')
    parser.add_argument('--workload', action='append', default=[], metavar='[PLACE=]CMD')
    parser.add_argument('--console-init', action='append', default=[], metavar='[PLACE=]CMD')
    parser.add_argument('--record-opts', default='')
    parser.add_argument('--boot', action='store_true',
                        help='dump the boot\'s own recording (CONFIG_PERFREC_BOOT) instead')
    parser.add_argument('--baseline', metavar='DIR')
    parser.add_argument('--fail-above', type=float, metavar='PCT')
    parser.add_argument('--normalize', action='store_true')
    parser.add_argument('--verify-dump', action='store_true')
    parser.add_argument('--boot-timeout', type=int, default=60)
    parser.add_argument('--command-timeout', type=int, default=300)
    parser.add_argument('--reserve-timeout', type=int, default=30)
    parser.add_argument('--prompt', help="U-Boot's prompt (default: the build's "
                        "CONFIG_SYS_PROMPT, else '=> ')")
    parser.add_argument('--worker', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.worker and not args.places:
        parser.error('no place: name one, or KEY=VALUE tags')
    if args.jobs < 1:
        parser.error(f'--jobs {args.jobs}: want 1 or more')
    if not args.build:
        parser.error('--build: which U-Boot build each board runs (its u-boot ELF)')
    for place, build in per_place(args.build).items():
        if not os.path.exists(os.path.join(build, 'u-boot')):
            parser.error(f"--build {place + '=' if place else ''}{build}: no u-boot ELF there")
    if args.fail_above is not None and not args.baseline:
        parser.error('--fail-above needs --baseline')
    return args


def stopped(timeout):
    """After Ctrl-C: release what is held; return 130"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    held = list(acquired)
    left = [place for place in held if release(place, timeout)]
    say(f"stopped; places released: {', '.join(p for p in held if p not in left) or 'none'}"
        + (f"; NOT released: {', '.join(left)}" if left else ''))
    return 130


def main(argv=None):
    """Reserve, record, gate, release; return the exit code"""
    args = parse_args(argv)
    if args.worker:
        return worker(args)
    for var in ('LG_COORDINATOR', 'LG_ENV'):
        if not os.environ.get(var):
            say(f"{var} is not set: the lab comes from labgrid's environment")
            return LAB

    def stop(signum, _frame):
        raise KeyboardInterrupt(f'signal {signum}')

    signal.signal(signal.SIGTERM, stop)
    start = time.monotonic()
    try:
        places = select_places(args.places, args.reserve_timeout)
        os.makedirs(args.out, exist_ok=True)
        results = run_places(args, places)
    except LabError as exc:
        say(str(exc))
        return LAB
    except KeyboardInterrupt:
        return stopped(args.reserve_timeout)
    secs = time.monotonic() - start
    with open(os.path.join(args.out, 'summary.txt'), 'w', encoding='utf-8') as outf:
        for place in places:
            outf.write(f'{place}\t{results[place][0]}\t{results[place][1]}\n')
        outf.write(f'# {len(places)} places, --jobs {args.jobs}, {secs:.1f} s\n')
    say(f'{len(places)} places in {secs:.1f} s (--jobs {args.jobs}): ' +
        ', '.join(f'{p} {OUTCOME[results[p][0]]}' for p in places))
    return max(code for code, _ in results.values())


if __name__ == '__main__':
    sys.exit(main())
