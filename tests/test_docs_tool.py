"""The machinery that runs the manual's examples (tools.docs), on small pages made here: a
stale output is found and rewritten, a broken example is an error, the directives and the
masks do what the contributing page says."""

import textwrap

import click

from tools import docs as _docs
from tarotsim.cli import cli

SCORE = "tarotsim score --contract garde --oudlers 2 --points 45"


def page(tmp_path, text: str):
    p = tmp_path / "page.md"
    p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return p


def run(tmp_path, text: str) -> _docs.PageResult:
    return _docs.run_page(page(tmp_path, text))


def test_a_console_output_that_differs_is_stale_and_rewritten_with_what_the_command_prints(tmp_path):
    res = run(tmp_path, f"""
        # a page

        ```console
        $ {SCORE}
        value V        +99 per defender
        ```
        """)
    assert not res.errors and res.stale and not res.ok
    assert "value V        +58 per defender" in res.new and "+99" not in res.new
    again = _docs.run_page(page(tmp_path, res.new))  # the rewritten page is up to date
    assert again.ok and again.new == res.new


def test_the_report_of_a_stale_page_names_the_command_that_rewrites_it(tmp_path):
    res = run(tmp_path, f"```console\n$ {SCORE}\n```\n")
    assert f"{_docs.REGENERATE} " in _docs.report(res, wrote=False)


def test_numbers_of_the_machine_are_masked_and_the_shown_ones_kept():
    shown = "2 thread(s) · 0.19 s · 525,278 deals/s\n3,992,928 plays · 437,789 plays/s · 0.31 ms"
    printed = "8 thread(s) · 1.5 s · 1,278 deals/s\n3,992,928 plays · 9 plays/s · 12 ms"
    assert _docs.mask(shown) == _docs.mask(printed)
    assert _docs.mask('{"deals": 7, "elapsed_s": 0.03, "deals_per_s": 650410.1, "threads": 2}') == \
        '{"deals": 7, "elapsed_s": #, "deals_per_s": #, "threads": #}'
    assert _docs.mask("<Game object at 0x7f80d49c7ed0>") == "<Game object at 0x#>"
    # a cold numba cache: the header's compile note (simulate.compile_text) is the machine's, not the page's
    from tarotsim.runs.simulate import compile_text
    cold = f"2 thread(s) · 0.66 s · 153,998 deals/s{compile_text(61.4)}"
    assert _docs.mask(cold) == _docs.mask("2 thread(s) · 0.65 s · 154,886 deals/s") == "# thread(s) · # s · # deals/s"
    assert _docs.mask('{"compile_s": 61.4, "deals": 7}') == '{"compile_s": #, "deals": 7}'
    assert _docs.mask("3,992,928 plays (4 per deal)") == "3,992,928 plays (4 per deal)"  # counts are not masked


def test_an_unexpected_exit_status_is_an_error_and_exit_declares_the_expected_one(tmp_path):
    bad = f"```console\n$ {SCORE.replace('garde', 'nope')}\n```\n"
    res = run(tmp_path, bad)
    assert res.errors and "exited with 2, not 0" in res.errors[0][1]
    res = run(tmp_path, "<!-- exit: 2 -->\n" + bad)
    assert not res.errors and "tarotsim: error: Invalid value for '--contract'" in res.new
    res = run(tmp_path, "<!-- exit: 1 -->\n" + bad)
    assert res.errors


def test_a_block_not_run_needs_a_reason_and_is_not_run(tmp_path):
    res = run(tmp_path, "<!-- not run: it needs a cluster -->\n```sh\nfalse\n```\n")
    assert res.ok
    res = run(tmp_path, "<!-- not run: -->\n```sh\nfalse\n```\n")
    assert res.errors and "must say why" in res.errors[0][1]


def test_a_file_block_is_the_repository_file(tmp_path):
    res = run(tmp_path, "<!-- file: examples/evening.csv -->\n```text\nold\n```\n")
    want = (_docs.ROOT / "examples" / "evening.csv").read_text(encoding="utf-8")
    assert res.stale and want.rstrip("\n") in res.new and "old" not in res.new
    assert run(tmp_path, "<!-- file: no/such/file -->\n```text\nx\n```\n").errors


def test_python_blocks_and_sessions_share_one_namespace_in_page_order(tmp_path):
    res = run(tmp_path, """
        ```python
        x = 20
        ```

        ```pycon
        >>> x + 1
        0
        >>> for i in range(2):
        ...     print(i * x)
        >>> 1 / 0
        ```
        """)
    assert not res.errors
    assert ">>> x + 1\n21\n" in res.new
    assert "...     print(i * x)\n0\n20\n" in res.new
    assert "ZeroDivisionError: division by zero" in res.new
    assert run(tmp_path, "```python\nraise ValueError('no')\n```\n").errors


def test_a_session_keeps_blank_lines_of_its_output(tmp_path):
    res = run(tmp_path, """
        ```pycon
        >>> print("a\\n\\nb")
        ```
        """)
    assert ">>> print(\"a\\n\\nb\")\na\n\nb\n```" in res.new
    assert _docs.run_page(page(tmp_path, res.new)).ok


def test_heavy_shell_examples_play_fewer_deals():
    cap = _docs.DEALS_CAP
    assert _docs.capped("tarotsim simulate --deals 1000000 --seed 1") == f"tarotsim simulate --deals {cap} --seed 1"
    assert _docs.capped("tarotsim simulate --deals=5000000") == f"tarotsim simulate --deals={cap}"
    assert _docs.capped(f"tarotsim simulate --deals {cap - 1}") == f"tarotsim simulate --deals {cap - 1}"


def test_a_shell_block_fails_on_its_first_failing_command_and_runs_shell_syntax_as_one_script(tmp_path):
    res = run(tmp_path, "```sh\nfor k in 1 2; do\n  echo $k > part$k.txt\ndone\ncat part1.txt part2.txt\n```\n")
    assert res.ok
    res = run(tmp_path, "```sh\n# a comment\ntarotsim score --contract nope --oudlers 1 --points 3\n```\n")
    assert res.errors


def test_commands_run_in_one_folder_per_page_with_the_repository_examples(tmp_path):
    res = run(tmp_path, """
        ```console
        $ tarotsim simulate --deals 3 --seed 1 --bots random --records r.jsonl > /dev/null
        $ ls examples/evening.csv r.jsonl
        ```
        """)
    assert not res.errors and "examples/evening.csv\nr.jsonl" in res.new


def test_plain_tarotsim_commands_run_in_process_and_others_in_bash():
    assert _docs.in_process_argv(SCORE) == SCORE.split()[1:]
    assert _docs.in_process_argv(SCORE.replace(" --points", " \\\n    --points")) == SCORE.split()[1:]
    for command in (SCORE + " | head -n 2", "tarotsim merge part*.json", "python -c 'print(1)'", "ls"):
        assert _docs.in_process_argv(command) is None


def test_blocks_are_found_with_their_fences_indentation_and_directives():
    lines = textwrap.dedent("""
        - an item:

          <!-- exit: 1 -->
          ```console
          $ tarotsim x
          ```

        ````markdown
        ```python
        not a block
        ```
        ````
        """).split("\n")
    first, second = _docs.parse_blocks(lines)
    assert (first.lang, first.indent, first.body, first.directive) == ("console", "  ", ["$ tarotsim x"], ("exit", "1"))
    assert second.lang == "markdown" and second.body == ["```python", "not a block", "```"]


def _command_paths(group: click.Group, path=()) -> list[str]:
    out = []
    with click.Context(group) as ctx:
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            out.append(" ".join(("tarotsim", *path, name)))
            if isinstance(cmd, click.Group):
                out += _command_paths(cmd, (*path, name))
    return out


def test_the_cli_reference_holds_every_command_with_its_help(tmp_path):
    text = _docs.cli_reference(tmp_path)
    for command in ["tarotsim", *_command_paths(cli)]:
        assert f"`{command}`" in text and f"$ {command} --help\nUsage: {command} " in text, command


def test_a_generated_region_is_rewritten_by_its_generator(tmp_path):
    res = run(tmp_path, "intro\n<!-- generated: cli-reference -->\nstale text\n<!-- end generated -->\nend\n")
    assert res.stale and "stale text" not in res.new and "## `tarotsim score`" in res.new and res.new.endswith("end\n")
    assert run(tmp_path, "<!-- generated: nothing -->\n<!-- end generated -->\n").errors


def test_main_rewrites_a_stale_page_and_check_only_reports_it(tmp_path, capsys):
    p = page(tmp_path, f"```console\n$ {SCORE}\n```\n")
    assert _docs.main(["--check", str(p)]) == 1 and "+58" not in p.read_text(encoding="utf-8")
    assert _docs.main([str(p)]) == 0 and "+58" in p.read_text(encoding="utf-8")
    assert _docs.main(["--check", str(p)]) == 0
    assert "up to date" in capsys.readouterr().out
