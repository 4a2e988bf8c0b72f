# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
# Group the blocks of a 'perfrec dump' console log into recordings

"""Group the blocks of a 'perfrec dump' console log into recordings.

A recording is every block with one id: a file (one block, seq 0) or a
pipe-mode stream (chunks 0, 1, ... in any order in the log). The same block
may be there more than once (a dump repeated after a damaged transfer):
the last intact copy of each chunk is used and the damaged copies then only
give warnings. A stream gives its chunks up to the first one missing or
damaged. perfrec_frames.py decodes and checks the blocks themselves.

    recordings, problems = extract(lines)
    recordings[-1].data          # bytes, or None when nothing is usable

extract() never raises on garbage.
"""

from perfrec_frames import PERF_MAGIC, PIPE_HEADER_SIZE, Parser, Problem, split_log


class Recording:
    """A recording: every block with its id, and the data they give

    Attributes:
        rec_id (str): the id
        kind (str or None): 'file' or 'pipe' (None if its blocks disagree)
        blocks (list of Block): its blocks in log order
        data (bytes or None): the file, or the stream's chunks 0..k before
            any gap; None if nothing is usable
        chunks (int): how many chunks data holds
        problems (list of Problem): errors and warnings
        ok (bool): True if no problem is an error
    """

    def __init__(self, rec_id):
        self.rec_id = rec_id
        self.kind = None
        self.blocks = []
        self.data = None
        self.chunks = 0
        self.problems = []

    @property
    def ok(self):  # pylint: disable=invalid-name  # public API: test/host reads it
        """True if data holds the whole recording as far as the log tells"""
        return self.data is not None and not any(not p.warning for p in self.problems)

    @property
    def lineno(self):
        """The log line of the recording's last block"""
        return self.blocks[-1].lineno

    def _error(self, lineno, message, seq=None):
        self.problems.append(Problem(lineno, message, self.rec_id, seq))

    def _warn(self, lineno, message, seq=None):
        self.problems.append(Problem(lineno, message, self.rec_id, seq, True))

    def resolve(self):
        """Choose a good copy of every chunk and assemble data"""
        kinds = {}
        for blk in self.blocks:
            if blk.kind:
                kinds.setdefault(blk.kind, blk.lineno)
        if len(kinds) > 1:
            self._error(self.lineno, f"recording {self.rec_id} has both file (line "
                                     f"{kinds['file']}) and pipe (line {kinds['pipe']}) blocks")
        elif kinds:
            self.kind = list(kinds)[0]
        good = self._good_copies()
        if self.kind == 'file':
            self._resolve_file(good)
        elif self.kind == 'pipe':
            self._resolve_pipe(good)
        elif not kinds:
            self._error(self.lineno, f'recording {self.rec_id}: no block with a readable begin '
                                     'line')

    def _good_copies(self):
        """Return {seq: the last intact copy of chunk seq}; note the problems of the others"""
        good = {}
        for blk in self.blocks:
            if blk.ok:
                prev = good.get(blk.seq)
                if prev and prev.payload != blk.payload:
                    self._warn(blk.lineno, f'block {blk.name} differs from its copy at line '
                                           f'{prev.lineno}; using this later one', blk.seq)
                good[blk.seq] = blk
        for blk in self.blocks:
            if blk.ok:
                continue
            if blk.seq in good or (self.kind == 'file' and blk.seq is None and good):
                blk_seq = 0 if blk.seq is None else blk.seq
                self.problems += [p.as_warning() for p in blk.problems]
                self._warn(blk.lineno, f'damaged copy of block {blk.name} ignored: using the good '
                                       f'copy at line {good[blk_seq].lineno}', blk.seq)
            else:
                self.problems += blk.problems
        return good

    def _resolve_file(self, good):
        blk = good.get(0)
        if not blk:
            self._error(self.lineno, f'recording {self.rec_id} (file) has no intact block: nothing '
                        'written', 0)
            return
        if not blk.payload.startswith(PERF_MAGIC):
            self._warn(blk.lineno, f'recording {self.rec_id} does not start with the perf.data '
                                   'magic', 0)
        self.data = blk.payload
        self.chunks = 1

    def _resolve_pipe(self, good):
        seen = {}
        for blk in self.blocks:
            if blk.seq is not None:
                seen.setdefault(blk.seq, blk.lineno)
        if not seen:
            self._error(self.lineno, f'stream {self.rec_id}: no block with a readable seq')
            return
        last = max(seen)
        seq = 0
        while seq in good:
            seq += 1
        if seq <= last:
            later = sorted(s for s in seen if s > seq)
            why = 'damaged' if seq in seen else 'missing'
            if later:
                after = (f"; chunk{'s' if len(later) > 1 else ''} {_seq_list(later)} after it "
                         f"(from line {seen[later[0]]}) not used")
            else:
                after = ''
            if seq:
                what = f"writing chunk{'s'[:seq > 1]} {_seq_list(range(seq))} only"
            else:
                what = 'nothing written'
            self._error(seen[later[0]] if why == 'missing' else seen[seq],
                        f'stream {self.rec_id}: chunk {seq} {why}: {what}{after}',
                        seq)
        if seq:
            self.data = b''.join(good[s].payload for s in range(seq))
            self.chunks = seq
            head = good[0].payload
            if (not head.startswith(PERF_MAGIC) or
                    head[8:16] != PIPE_HEADER_SIZE.to_bytes(8, 'little')):
                self._warn(good[0].lineno, f'stream {self.rec_id} does not start with a pipe-mode '
                           'perf.data header', 0)


def _seq_list(seqs):
    """'3', '3-5' or '3-5, 8' from a sorted list of chunk numbers"""
    out = []
    for seq in seqs:
        if out and out[-1][1] == seq - 1:
            out[-1][1] = seq
        else:
            out.append([seq, seq])
    return ', '.join(str(a) if a == b else f'{a}-{b}' for a, b in out)


def assemble(blocks):
    """Group @blocks into recordings

    Returns:
        tuple: (list of Recording in the order of their last block in the
        log, list of Problem: the warnings of blocks that belong to no
        recording, then each recording's problems: those of its blocks in
        log order, then its own)
    """
    recs = {}
    loose = []
    for blk in blocks:
        if blk.rec_id is None:
            loose += [p.as_warning() for p in blk.problems]
            continue
        recs.setdefault(blk.rec_id, Recording(blk.rec_id)).blocks.append(blk)
    recordings = sorted(recs.values(), key=lambda rec: rec.lineno)
    problems = list(loose)
    for rec in recordings:
        rec.resolve()
        problems += rec.problems
    return recordings, problems


def extract(lines):
    """Find every recording in the log @lines (str or bytes, line ends optional)

    @lines may also be the whole log as one str or bytes (see split_log()).

    Returns:
        tuple: (list of Recording, the last one last; list of Problem)
    """
    if isinstance(lines, (str, bytes, bytearray)):
        lines = split_log(lines)
    parser = Parser()
    for line in lines:
        parser.feed(line)
    return assemble(parser.finish())
