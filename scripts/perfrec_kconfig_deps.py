# SPDX-License-Identifier: GPL-2.0+
# Copyright (c) 2026 The perfrec authors
"""Why an option of a config fragment did not stick in a U-Boot .config.

Kconfig silently drops an option whose dependencies are not met. blocked()
names each option of the fragments that the .config does not hold, with the
option's "depends on" expression (all its lines, from every place the tree
defines it) and the terms of it that the .config does not meet: the board's
side of the story, in Kconfig's own words.
"""

import os
import re
import subprocess

TOKEN = re.compile(r'\s*(&&|\|\||!=|<=|>=|[!()=<>]|"[^"]*"|[A-Za-z0-9_]+)')
BLOCK_END = re.compile(r'^\s*(config|menuconfig|choice|endchoice|menu|endmenu|if|endif|'
                       r'comment|source|mainmenu)\b')


def fragment_options(fragments):
    """The fragments' settings, the last one of each option winning: [(option, line)]"""
    vals = {}
    for frag in fragments:
        with open(frag, encoding='utf-8') as inf:
            for line in inf:
                line = line.strip()
                mat = (re.match(r'^(CONFIG_\w+)=', line) or
                       re.match(r'^# (CONFIG_\w+) is not set$', line))
                if mat:
                    vals.pop(mat.group(1), None)
                    vals[mat.group(1)] = line
    return list(vals.items())


def stuck(cfg, opt, line):
    """Does the .config (@cfg, {option: value}) hold fragment line @line for @opt?"""
    if line.startswith('#'):
        return cfg.get(opt, 'n') == 'n'
    return '%s=%s' % (opt, cfg.get(opt)) == line


def depends(src, sym):
    """Every "depends on" expression of @sym's definitions in the tree's Kconfig files"""
    res = subprocess.run(['grep', '-rnE', '--include=Kconfig*', r'^\s*(menu)?config %s\s*$' % sym,
                          '.'], cwd=src, capture_output=True, text=True, check=False)
    exprs = []
    for hit in res.stdout.splitlines():
        path, num = hit.split(':')[:2]
        with open(os.path.join(src, path), encoding='utf-8', errors='replace') as inf:
            lines = inf.read().splitlines()[int(num):]
        for line in lines:
            if BLOCK_END.match(line):
                break
            mat = re.match(r'^\s*depends on\s+(.*?)\s*(#.*)?$', line)
            if mat:
                exprs.append(mat.group(1))
    return exprs


class Expr:
    """A Kconfig expression over a .config's values: tristate 0, 1, 2"""

    def __init__(self, text, cfg):
        self.toks = TOKEN.findall(text)
        self.pos = 0
        self.cfg = cfg

    def peek(self):
        """The next token, or None"""
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self):
        """Consume and return the next token"""
        tok = self.peek()
        self.pos += 1
        return tok

    def value(self, tok):
        """A symbol's (or a constant's) string value"""
        if tok.startswith('"'):
            return tok.strip('"')
        if tok in ('y', 'm', 'n'):
            return tok
        return self.cfg.get('CONFIG_' + tok, 'n').strip('"')

    def atom(self):
        """symbol, symbol <op> symbol, ! atom, ( expr )"""
        tok = self.take()
        if tok == '!':
            return 2 - self.atom()
        if tok == '(':
            val = self.disj()
            self.take()
            return val
        left = self.value(tok or 'n')
        if self.peek() in ('=', '!=', '<', '>', '<=', '>='):
            oper, right = self.take(), self.value(self.take() or 'n')
            try:
                lval, rval = int(left, 0), int(right, 0)
            except ValueError:
                lval, rval = left, right
            return 2 if {'=': lval == rval, '!=': lval != rval, '<': lval < rval,
                         '>': lval > rval, '<=': lval <= rval,
                         '>=': lval >= rval}[oper] else 0
        return {'y': 2, 'm': 1}.get(left, 0)

    def conj(self):
        """atom && atom ..."""
        val = self.atom()
        while self.peek() == '&&':
            self.take()
            val = min(val, self.atom())
        return val

    def disj(self):
        """conj || conj ..."""
        val = self.conj()
        while self.peek() == '||':
            self.take()
            val = max(val, self.conj())
        return val


def split_and(text):
    """The top-level && terms of an expression"""
    terms, depth, start = [], 0, 0
    for idx, char in enumerate(text):
        depth += {'(': 1, ')': -1}.get(char, 0)
        if depth == 0 and text.startswith('&&', idx):
            terms.append(text[start:idx].strip())
            start = idx + 2
    return terms + [text[start:].strip()]


def unmet(expr, cfg):
    """The top-level terms of @expr that the .config does not meet"""
    return [t for t in split_and(expr) if not Expr(t, cfg).disj()]


def explain(src, cfg, opt, line):
    """One line: why @opt's fragment @line did not stick"""
    exprs = depends(src, opt[len('CONFIG_'):])
    failed = [t for e in exprs for t in unmet(e, cfg)]
    if failed:
        return ('%s did not stick: it depends on %s, and this board has not %s' %
                (line, ' && '.join('(%s)' % e if '||' in e else e for e in exprs),
                 ', '.join(failed)))
    if not exprs and line.startswith('CONFIG_'):
        return '%s did not stick: the tree has no such option, or sets it itself' % line
    return ('%s did not stick: its own dependencies hold; an enclosing "if" or menu, a '
            'choice or a "select" of the board decided otherwise' % line)


def blocked(src, cfg, fragments):
    """A line for each fragment option the .config (@cfg) lost, in fragment order"""
    return [explain(src, cfg, opt, line) for opt, line in fragment_options(fragments)
            if not stuck(cfg, opt, line)]
