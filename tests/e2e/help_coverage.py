#!/usr/bin/env python3
"""Every command and option a program's --help prints is in its man page and
its bash, zsh and fish completions.

  help_coverage.py PROGRAM MANPAGE BASH_COMPLETION ZSH_COMPLETION FISH_COMPLETION

Commands are read from --help recursively: CLI11's "Subcommands:" section,
and a footer line naming "NAME WORD ..." whose `NAME WORD --help` prints
"Usage: NAME WORD" (blogsearch's show). For each command (the program itself
included):
  - man page: each of its options is in the SYNOPSIS block of that command
    and in the OPTIONS section (-h/--help in OPTIONS only);
  - bash: completing "NAME CMD... -" offers each option, "NAME CMD... "
    each subcommand (the completion function run as bash runs it);
  - fish: the same through `complete -C`;
  - zsh: each option and subcommand is written in the file (not run).
Prints one line per gap and exits 1 if there is any.
"""
import os
import re
import subprocess
import sys

program, manpage, bash_file, zsh_file, fish_file = sys.argv[1:6]
name = os.path.basename(program)
gaps = []


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def parse_help(path):
    """(options, subcommands) of `program path... --help`."""
    out = run([program, *path, "--help"])
    if out.returncode != 0:
        gaps.append(f"{' '.join([name, *path])} --help exited {out.returncode}: {out.stderr.strip()}")
        return [], []
    options, subs, section = [], [], None
    for line in out.stdout.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        if section == "Options":
            m = re.match(r"^  ((?:-\w,)?--[\w-]+|-\w)\b", line)
            if m:
                options += m.group(1).split(",")
        elif section == "Subcommands":
            m = re.match(r"^  ([a-z][\w-]*)\s", line)
            if m:
                subs.append(m.group(1))
    # Commands named in the text ("Show one post: blogsearch show ID|URL").
    text = "\n".join(l for l in out.stdout.splitlines() if not l.startswith("Usage:"))
    for word in re.findall(r"(?<![\w/.-])" + re.escape(name) + r" ([a-z][\w-]*)\b", text):
        if word in subs or word in path:
            continue
        probe = run([program, *path, word, "--help"])
        if probe.returncode == 0 and re.search(r"Usage: \S*" + re.escape(name) + " " + re.escape(word) + r"\b",
                                               probe.stdout):
            subs.append(word)
    return options, subs


commands = {}
todo = [[]]
while todo:
    path = todo.pop(0)
    options, subs = parse_help(path)
    commands[tuple(path)] = (options, subs)
    todo += [path + [s] for s in subs]

# ---- man page ---------------------------------------------------------------
rendered = run(["mandoc", "-T", "utf8", "-O", "width=400", manpage]).stdout
rendered = re.sub(r".\x08", "", rendered)
sections, current = {}, None
for line in rendered.splitlines():
    if re.match(r"^[A-Z][A-Z ]+$", line):
        current = line
        sections[current] = []
    elif current:
        sections[current].append(line)
synopsis_blocks = {}
for line in sections.get("SYNOPSIS", []):
    m = re.match(r"^\s{1,6}(" + re.escape(name) + r"(?: [a-z][\w-]*)*)", line)
    if m:
        words = m.group(1).split()[1:]
        # The longest prefix of words that is a known command.
        while tuple(words) not in commands and words:
            words.pop()
        key = tuple(words)
        synopsis_blocks.setdefault(key, "")
        current_block = key
    if line.strip() and "current_block" in dir():
        synopsis_blocks[current_block] += " " + line
options_text = "\n".join(sections.get("OPTIONS", []))


def mentions(text, option):
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text) is not None


for path, (options, subs) in commands.items():
    label = " ".join([name, *path])
    if path and path not in synopsis_blocks:
        gaps.append(f"man {manpage}: no SYNOPSIS line for '{label}'")
    for opt in options:
        if opt not in ("-h", "--help") and not mentions(synopsis_blocks.get(path, ""), opt):
            gaps.append(f"man {manpage}: '{label}' synopsis lacks {opt}")
        if not mentions(options_text, opt):
            gaps.append(f"man {manpage}: OPTIONS lacks {opt} (of '{label}')")


# ---- bash -------------------------------------------------------------------
def bash_complete(words):
    script = r'''
source /usr/share/bash-completion/bash_completion
source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
fn=$(complete -p "$1" | sed 's/.*-F \([^ ]*\) .*/\1/')
"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}"
'''
    out = run(["bash", "-c", script, "bash", bash_file, *words])
    return set(out.stdout.split())


def fish_complete(line):
    out = run(["fish", "--no-config", "-c", f"source {fish_file}; complete -C {shquote(line)}"])
    return {l.split("\t")[0] for l in out.stdout.splitlines()}


def shquote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


have_bash = os.path.exists("/usr/share/bash-completion/bash_completion")
have_fish = run(["sh", "-c", "command -v fish"]).returncode == 0
for tool, present in (("bash-completion", have_bash), ("fish", have_fish)):
    if not present:
        print(f"SKIP: {tool} is not installed: its completions are only checked as text")
zsh_text = open(zsh_file).read()
bash_text = open(bash_file).read()
fish_text = open(fish_file).read()

for path, (options, subs) in commands.items():
    label = " ".join([name, *path])
    words = [name, *path]
    if have_bash:
        got_opts, got_subs = bash_complete(words + ["-"]), bash_complete(words + [""])
    if have_fish:
        fish_opts, fish_subs = fish_complete(" ".join(words) + " -"), fish_complete(" ".join(words) + " ")
    for opt in options:
        if have_bash and opt not in got_opts:
            gaps.append(f"bash: '{label} -<TAB>' does not offer {opt}")
        if not have_bash and not mentions(bash_text, opt):
            gaps.append(f"bash: {bash_file} lacks {opt}")
        if have_fish and opt not in fish_opts:
            gaps.append(f"fish: '{label} -<TAB>' does not offer {opt}")
        if not have_fish and not mentions(fish_text, opt.lstrip("-")):
            gaps.append(f"fish: {fish_file} lacks {opt}")
        if not mentions(zsh_text, opt):
            gaps.append(f"zsh: {zsh_file} lacks {opt} (of '{label}')")
    for sub in subs:
        if have_bash and sub not in got_subs:
            gaps.append(f"bash: '{label} <TAB>' does not offer {sub}")
        if have_fish and sub not in fish_subs:
            gaps.append(f"fish: '{label} <TAB>' does not offer {sub}")
        if not re.search(r"(?<![\w-])" + re.escape(sub) + r"[:)]", zsh_text):
            gaps.append(f"zsh: {zsh_file} lacks the command {sub}")

for g in gaps:
    print("GAP:", g)
n_opts = sum(len(o) for o, _ in commands.values())
print(f"{name}: {len(commands)} commands, {n_opts} options checked; {len(gaps)} gaps")
sys.exit(1 if gaps else 0)
