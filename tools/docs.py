"""The manual's examples, run: every code block of the README and the docs pages, checked or rewritten.

A page's examples are its fenced code blocks, run in page order in one scratch folder (the
repository's ``examples/``, ``docs/``, ``benchmarks/`` and ``tests/`` are linked into it), by
their language:

* ``console``: a shell session. Each ``$ command`` runs (a plain ``tarotsim ...`` in this process,
  anything else through ``bash``) and what it prints, standard output and error together, is the
  output shown under it; outputs are compared with the numbers that depend on the machine
  masked (:data:`MASKS`);
* ``pycon``: a Python session. Each ``>>>`` statement runs and what it prints is compared;
* ``python``: run; the Python blocks and sessions of one page share one namespace, in order;
* ``sh``, ``bash``: each command runs and must succeed. Nothing is shown, so these hold the heavy
  commands: a ``--deals N`` above :data:`DEALS_CAP` plays :data:`DEALS_CAP` deals in the tests;
* any other language (``text``, ``json``, ``csv`` ...) is text and is not run.

An HTML comment on the line just before a block changes it:

* ``<!-- not run: REASON -->``: shown, never run (sparingly, and the reason is required);
* ``<!-- exit: N -->``: the block's last command exits with status N (the others with 0);
* ``<!-- file: PATH -->``: the block is the repository's file PATH, exactly.

A region between ``<!-- generated: NAME -->`` and ``<!-- end generated -->`` is written whole by
the generator NAME of :data:`GENERATORS` (the CLI reference, from the commands' own ``--help``).

Usage (``tests/test_docs_examples.py`` does the ``--check``)::

    python -m tools.docs              # rewrite every stale output of every page
    python -m tools.docs --check      # say which pages are stale or broken (exit 1), write nothing
    python -m tools.docs README.md    # only the pages named
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the command that rewrites stale outputs, as the failing test prints it
REGENERATE = "python -m tools.docs"
#: what the scratch folder of a page links from the repository
LINKED = ("examples", "docs", "benchmarks", "tests")
#: the terminal width the commands see (``--help`` wraps to it)
COLUMNS = "80"
#: a shell example (``sh``, no output shown) asking for more deals plays this many in the tests
DEALS_CAP = 50
#: pages whose examples are not run, with the reason (each entry names a page that exists)
NOT_RUN_PAGES: dict[str, str] = {
}
#: numbers that depend on the machine or the moment: masked on both sides before outputs are compared
MASKS = (
    # a cold numba cache adds its compile seconds to a report's header (simulate.compile_text)
    (re.compile(r" \(and \d+(?:\.\d+)? s compiling the kernels first, once\)"), ""),
    (re.compile(r"\b\d[\d,]*(?:\.\d+)? ?(k|M)? (deals|plays|decisions|worlds|rollouts|steps)/s\b"), r"# \2/s"),
    (re.compile(r"\b\d+(?:\.\d+)? (s|ms)\b"), r"# \1"),
    (re.compile(r"\b\d+ thread\(s\)"), "# thread(s)"),
    (re.compile(r'"(threads|elapsed_s|compile_s|seconds|\w+_per_s)": [-+\d.eE]+'), r'"\1": #'),
    (re.compile(r" at 0x[0-9a-f]+>"), " at 0x#>"),
)

SHELL_LANGS = ("sh", "bash", "shell")
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)[^`]*$")
DIRECTIVE = re.compile(r"^\s*<!--\s*(not run|exit|file):\s*(.*?)\s*-->\s*$")
REGION_START = re.compile(r"^<!-- generated: ([\w-]+) -->$")
REGION_END = "<!-- end generated -->"
DEALS = re.compile(r"--deals(=| +)(\d+)")
SHELL_SYNTAX = set("|&;<>()$`*?[]{}~!\\'\"")


@dataclass
class Block:
    """One fenced code block of a page.

    ``first`` and ``last`` are the indexes (0-based) of its fence lines in the page's lines;
    ``body`` its lines without the indentation of the fence; ``line`` the 1-based line number of
    its opening fence, as an editor shows it.
    """

    first: int
    last: int
    indent: str
    lang: str
    body: list[str]
    directive: tuple[str, str] | None = None

    @property
    def line(self) -> int:
        return self.first + 1


@dataclass
class PageResult:
    """What running a page gave.

    What running a page gave: its text with every output as the examples print them now,
    the blocks whose shown output differed (``stale``) and the examples that failed (``errors``:
    an exception, an unexpected exit status, a bad directive), each as ``(line, message)``, and
    the wall time of every command run (``times``: ``(seconds, line, command)``)."""

    path: Path
    old: str
    new: str
    stale: list[tuple[int, str]] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    times: list[tuple[float, int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and self.new == self.old


# --- reading a page ---------------------------------------------------------------------------


def parse_blocks(lines: list[str]) -> list[Block]:
    """The fenced code blocks of a page's lines, each with the directive on the line before it.

    A block ends at the first line of the same fence character, at least as long, and nothing
    else; a block never closed runs to the end of the page (as CommonMark reads it)."""
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m["indent"], m["fence"]
        j = i + 1
        while j < len(lines) and not _closes(lines[j], fence):
            j += 1
        body = [_dedent(line, indent) for line in lines[i + 1:j]]
        d = DIRECTIVE.match(lines[i - 1]) if i else None
        blocks.append(Block(i, j, indent, m["lang"].lower(), body, (d[1], d[2]) if d else None))
        i = j + 1
    return blocks


def _closes(line: str, fence: str) -> bool:
    s = line.strip()
    return len(s) >= len(fence) and set(s) == {fence[0]}


def _dedent(line: str, indent: str) -> str:
    return line[len(indent):] if line.startswith(indent) else line.lstrip()


def regions(lines: list[str], blocks: list[Block]) -> list[tuple[int, int, str]]:
    """The generated regions of a page.

    The generated regions of a page, ``(start marker index, end marker index, generator)``;
    markers shown inside a code block are text."""
    in_block = {i for b in blocks for i in range(b.first, b.last + 1)}
    out = []
    start = None
    for i, line in enumerate(lines):
        if i in in_block:
            continue
        m = REGION_START.match(line.strip())
        if m:
            start = (i, m[1])
        elif line.strip() == REGION_END and start is not None:
            out.append((start[0], i, start[1]))
            start = None
    return out


def mask(text: str) -> str:
    """``text`` with the numbers of :data:`MASKS` replaced, and the trailing spaces and blank lines dropped."""
    for pattern, repl in MASKS:
        text = pattern.sub(repl, text)
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def _same(shown: list[str], printed: str) -> bool:
    return mask("\n".join(shown)) == mask(printed)


def _output_lines(printed: str) -> list[str]:
    return [line.rstrip() for line in printed.rstrip("\n").splitlines()] if printed.strip() else []


# --- running commands and Python ----------------------------------------------------------------


@contextlib.contextmanager
def _captured() -> Iterator[io.BytesIO]:
    """Standard output and error into one byte buffer (in the order written), standard input empty."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, out
    try:
        yield raw
    finally:
        out.flush()
        out.detach()  # the buffer outlives its wrapper, which would close it
        sys.stdin, sys.stdout, sys.stderr = saved


@contextlib.contextmanager
def _environment(workdir: Path) -> Iterator[None]:
    """The page's folder as current directory and first import path, and the terminal width fixed."""
    old_cwd, old_columns = os.getcwd(), os.environ.get("COLUMNS")
    os.chdir(workdir)
    os.environ["COLUMNS"] = COLUMNS
    sys.path.insert(0, str(workdir))
    try:
        yield
    finally:
        os.chdir(old_cwd)
        with contextlib.suppress(ValueError):
            sys.path.remove(str(workdir))
        if old_columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old_columns


def in_process_argv(command: str) -> list[str] | None:
    """The arguments of a plain ``tarotsim ...`` command, or None.

    The arguments of a plain ``tarotsim ...`` command (run in this process), or None for a
    command that needs a shell (pipes, redirections, variables, globs, quotes, other programs).
    A command continued over lines (a backslash ending each line but the last) is one command."""
    command = command.replace("\\\n", " ")
    if SHELL_SYNTAX & set(command):
        return None
    argv = command.split()
    return argv[1:] if argv and argv[0] == "tarotsim" else None


def run_command(command: str, workdir: Path) -> tuple[int, str]:
    """Run one shell command in ``workdir``.

    Run one shell command in ``workdir``: its exit status and what it printed (standard output
    and error together)."""
    argv = in_process_argv(command)
    if argv is not None:
        from tarotsim.cli import main

        with _environment(workdir), _captured() as raw:
            try:
                main(argv)
                status = 0
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        return status, raw.getvalue().decode("utf-8")
    env = dict(os.environ, COLUMNS=COLUMNS)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(["bash", "-c", command], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    return done.returncode, done.stdout.decode("utf-8", "replace")


def run_python(source: str, namespace: dict, workdir: Path, name: str, single: bool = False) -> tuple[str, str | None]:
    """Run Python ``source`` in ``namespace``: what it printed, and the exception's last line or None.

    ``single`` runs it as one statement of an interactive session: an expression's value is printed."""
    with _environment(workdir), _captured() as raw:
        try:
            exec(compile(source, name, "single" if single else "exec"), namespace)
            error = None
        except Exception as e:
            error = traceback.format_exception_only(type(e), e)[-1].rstrip()
    return raw.getvalue().decode("utf-8"), error


def split_session(body: list[str]) -> list[tuple[list[str], list[str]]]:
    """Split a console block into commands and their outputs.

    A console block's ``(command lines, output lines)`` pairs: a command starts with ``$ `` and
    goes on while its lines end with a backslash."""
    pairs: list[tuple[list[str], list[str]]] = []
    i = 0
    while i < len(body):
        if not body[i].startswith("$ "):
            if not pairs:  # text before the first command is kept as it is
                pairs.append(([], []))
            pairs[-1][1].append(body[i])
            i += 1
            continue
        cmd = [body[i]]
        while cmd[-1].endswith("\\") and i + 1 < len(body):
            i += 1
            cmd.append(body[i])
        pairs.append((cmd, []))
        i += 1
    return pairs


def split_pycon(body: list[str]) -> list[tuple[int, list[str], list[str]]]:
    """Split a Python session into its statements.

    A Python session's statements: ``(line offset, source lines, output lines)``. A statement
    starts with ``>>> ``, goes on with ``... `` lines, and what follows it up to the next ``>>> ``
    (blank lines included) is its output."""
    out: list[tuple[int, list[str], list[str]]] = []
    for i, line in enumerate(body):
        if line.startswith(">>>"):
            out.append((i, [line[4:]], []))
        elif out and not out[-1][2] and (line.startswith("... ") or line == "..."):
            out[-1][1].append(line[4:])
        elif out:
            out[-1][2].append(line)
    return out


def command_text(lines: list[str]) -> str:
    """The shell command of a console block's command lines (the ``$ `` and line continuations dropped)."""
    text = "\n".join(lines)
    return text[2:] if text.startswith("$ ") else text


def shell_commands(body: list[str]) -> list[str]:
    """The commands of a ``sh`` block: one per line (continued by a backslash), comments and blank lines dropped."""
    out, current = [], ""
    for line in body:
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        current += line + "\n"
        if not line.endswith("\\"):
            out.append(current.rstrip("\n"))
            current = ""
    if current:
        out.append(current.rstrip("\n"))
    return out


def capped(command: str) -> str:
    """``command`` with every ``--deals N`` above :data:`DEALS_CAP` lowered to it (heavy shell examples)."""
    return DEALS.sub(lambda m: m[0] if int(m[2]) <= DEALS_CAP else f"--deals{m[1]}{DEALS_CAP}", command)


# --- running a page ---------------------------------------------------------------------------


class PageRun:
    """The examples of one page, run in order in one scratch folder and one Python namespace."""

    def __init__(self, path: Path, workdir: Path):
        self.path = path
        self.name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        self.workdir = workdir
        self.namespace: dict = {"__name__": "__docs__"}
        self.stale: list[tuple[int, str]] = []
        self.errors: list[tuple[int, str]] = []
        self.times: list[tuple[float, int, str]] = []

    def block(self, b: Block) -> list[str]:
        """Run block ``b``: its body as it should read now."""
        kind, arg = b.directive or ("", "")
        if kind == "not run":
            if not arg:
                self.errors.append((b.line, "a block marked `not run` must say why: <!-- not run: REASON -->"))
            return b.body
        if kind == "file":
            return self.file_block(b, arg)
        exit_status = 0
        if kind == "exit":
            if not arg.isdigit() or b.lang not in ("console", *SHELL_LANGS):
                self.errors.append((b.line, f"`exit: {arg}` needs a number and a console or sh block"))
                return b.body
            exit_status = int(arg)
        if b.lang == "console":
            return self.console(b, exit_status)
        if b.lang in SHELL_LANGS:
            self.shell(b, exit_status)
        elif b.lang == "pycon":
            return self.pycon(b)
        elif b.lang in ("python", "py"):
            _, error = run_python("\n".join(b.body) + "\n", self.namespace, self.workdir, f"{self.name}:{b.line}")
            if error:
                self.errors.append((b.line, f"the Python block raised {error}"))
        return b.body

    def file_block(self, b: Block, rel: str) -> list[str]:
        """A block that shows the repository's file ``rel``: that file's lines."""
        target = ROOT / rel
        if not target.is_file():
            self.errors.append((b.line, f"`file: {rel}` names no file of the repository"))
            return b.body
        want = target.read_text(encoding="utf-8").rstrip("\n").splitlines()
        if want != b.body:
            self.stale.append((b.line, f"the block differs from {rel}"))
        return want

    def _check_status(self, line: int, command: str, status: int, want: int, printed: str) -> None:
        """An error naming the command and the end of its output when it exited otherwise than ``want``."""
        if status != want:
            tail = "\n    ".join(printed.rstrip().splitlines()[-6:])
            self.errors.append((line, f"`{command}` exited with {status}, not {want}:\n    {tail}"))

    def console(self, b: Block, exit_status: int) -> list[str]:
        """A shell session: each command run, its shown output kept when it matches what it printed."""
        pairs = split_session(b.body)
        commands = [i for i, (cmd, _) in enumerate(pairs) if cmd]
        if not commands:
            self.errors.append((b.line, "a console block holds no `$ command`"))
            return b.body
        body: list[str] = []
        for i, (cmd, shown) in enumerate(pairs):
            body += cmd
            if not cmd:
                body += shown
                continue
            command = command_text(cmd)
            status, printed = self.run(b.line, command)
            self._check_status(b.line, command, status, exit_status if i == commands[-1] else 0, printed)
            if _same(shown, printed):
                body += shown
            else:
                self.stale.append((b.line, f"`{command}` prints something else now"))
                body += _output_lines(printed)
        return body

    def shell(self, b: Block, exit_status: int) -> None:
        """Run the commands of a shell block and check their outputs.

        Each command of a block of plain ``tarotsim`` commands in turn; any other block as one
        ``bash`` script that stops at the first failure."""
        commands = [capped(c) for c in shell_commands(b.body)]
        if not all(in_process_argv(c) is not None for c in commands):
            commands = ["set -e -o pipefail\n" + capped("\n".join(b.body))]
        for i, command in enumerate(commands):
            status, printed = self.run(b.line, command)
            self._check_status(b.line, command, status, exit_status if i == len(commands) - 1 else 0, printed)

    def run(self, line: int, command: str) -> tuple[int, str]:
        """:func:`run_command` in the page's folder, timed."""
        t0 = time.perf_counter()
        out = run_command(command, self.workdir)
        self.times.append((time.perf_counter() - t0, line, command))
        return out

    def pycon(self, b: Block) -> list[str]:
        """A Python session: each statement run, its shown output kept when it matches what it printed."""
        body: list[str] = []
        statements = split_pycon(b.body)
        if not statements:
            self.errors.append((b.line, "a pycon block holds no `>>>` statement"))
            return b.body
        for offset, src, shown in statements:
            body += [">>> " + src[0]] + ["... " + s for s in src[1:]]
            source = "\n".join(src) + "\n"
            printed, error = run_python(source, self.namespace, self.workdir, f"{self.name}:{b.line}", single=True)
            if error:
                printed += f"Traceback (most recent call last):\n  ...\n{error}\n"
            if _same(shown, printed):
                body += shown
            else:
                self.stale.append((b.line + 1 + offset, f"`{src[0]}` gives something else now"))
                body += _output_lines(printed)
        return body


def _link_repository(workdir: Path) -> None:
    for name in LINKED:
        if (ROOT / name).exists():
            (workdir / name).symlink_to(ROOT / name, target_is_directory=True)


def run_page(path: Path) -> PageResult:
    """Run every example of the page at ``path`` and every generator of its regions, in page order."""
    old = path.read_text(encoding="utf-8")
    lines = old.split("\n")
    workdir = Path(tempfile.mkdtemp(prefix="tarotsim-docs-"))
    try:
        _link_repository(workdir)
        run = PageRun(path, workdir)
        new = _rewrite(lines, run)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return PageResult(path, old, "\n".join(new), run.stale, run.errors, run.times)


def _rewrite(lines: list[str], run: PageRun) -> list[str]:
    """The page's lines with every block's body and every generated region as they read now."""
    blocks = parse_blocks(lines)
    spans = regions(lines, blocks)
    items: list[tuple[int, Block | tuple[int, int, str]]] = [(r[0], r) for r in spans]
    items += [(b.first, b) for b in blocks if not any(s < b.first < e for s, e, _ in spans)]
    out: list[str] = []
    pos = 0
    for _, item in sorted(items, key=lambda it: it[0]):
        if isinstance(item, Block):
            out += lines[pos:item.first + 1] + [(item.indent + s) if s else s for s in run.block(item)]
            pos = item.last
        else:
            start, end, name = item
            out += lines[pos:start + 1] + _generated(name, start, end, lines, run) + [lines[end]]
            pos = end + 1
    return out + lines[pos:]


def _generated(name: str, start: int, end: int, lines: list[str], run: PageRun) -> list[str]:
    """The region's lines as its generator writes them now."""
    generator = GENERATORS.get(name)
    if generator is None:
        run.errors.append((start + 1, f"no generator named {name!r} (known: {', '.join(GENERATORS)})"))
        return lines[start + 1:end]
    new = generator(run.workdir).split("\n")
    if new != lines[start + 1:end]:
        run.stale.append((start + 1, f"the region that {name} writes differs"))
    return new


# --- generators ---------------------------------------------------------------------------------


def cli_reference(workdir: Path) -> str:
    """Every command's ``--help``, in the order ``tarotsim --help`` lists them, a heading each."""
    import click

    from tarotsim.cli import cli

    parts: list[str] = []

    def walk(cmd: click.Command, path: list[str], depth: int) -> None:
        command = " ".join(["tarotsim", *path, "--help"])
        status, printed = run_command(command, workdir)
        if status != 0:
            raise RuntimeError(f"`{command}` exited with {status}: {printed}")
        title = " ".join(["tarotsim", *path])
        parts.extend(["", f"{'#' * depth} `{title}`", "", "```console", f"$ {command}", *_output_lines(printed), "```"])
        if isinstance(cmd, click.Group):
            with click.Context(cmd) as ctx:
                for name in cmd.list_commands(ctx):
                    sub = cmd.get_command(ctx, name)
                    if sub is not None and not sub.hidden:
                        walk(sub, [*path, name], min(depth + 1, 3) if path else depth)

    walk(cli, [], 2)
    return "\n".join(parts[1:] + [""])


#: the generators of the ``<!-- generated: NAME -->`` regions
GENERATORS: dict[str, Callable[[Path], str]] = {"cli-reference": cli_reference}


# --- the pages ----------------------------------------------------------------------------------


def pages(root: Path = ROOT) -> list[str]:
    """Every page whose examples run.

    Every page whose examples run: README.md, CHANGELOG.md and the docs' Markdown pages,
    less :data:`NOT_RUN_PAGES` (paths relative to ``root``)."""
    found = [p for p in ("README.md", "CHANGELOG.md") if (root / p).exists()]
    found += sorted(str(p.relative_to(root)) for p in (root / "docs").rglob("*.md"))
    return [p for p in found if p not in NOT_RUN_PAGES]


def report(result: PageResult, wrote: bool) -> str:
    """A few lines on one page: up to date, or which examples are stale or failed."""
    name = str(result.path.relative_to(ROOT)) if result.path.is_relative_to(ROOT) else str(result.path)
    if result.ok:
        return f"{name}: up to date"
    lines = [f"{name}:{line}: {msg}" for line, msg in sorted(result.errors)]
    if result.new != result.old:
        lines += [f"{name}:{line}: {msg}" for line, msg in sorted(result.stale)] or [f"{name}: shown text stale"]
        lines.append(f"{name}: rewritten" if wrote else f"{name}: stale; `{REGENERATE} {name}` rewrites it")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=REGENERATE, description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages to run, relative to the repository (default: all)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page is stale or broken")
    parser.add_argument("--times", action="store_true", help="also print each page's slowest commands")
    args = parser.parse_args(argv)
    failed = False
    for page in args.pages or pages():
        path = Path(page) if Path(page).is_absolute() else ROOT / page
        if not path.is_file():
            print(f"{page}: no such page", file=sys.stderr)
            return 2
        result = run_page(path)
        write = not args.check and result.new != result.old
        if write:
            path.write_text(result.new, encoding="utf-8")
        failed |= bool(result.errors) or (args.check and not result.ok)
        print(report(result, write), flush=True)
        if args.times:
            for seconds, line, command in sorted(result.times, reverse=True)[:5]:
                print(f"  {seconds:7.2f} s  line {line}: {command.splitlines()[-1][:100]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
