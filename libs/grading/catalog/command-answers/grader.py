"""Grader of command-answers: each answer must match one of the accepted command forms."""
from shellgrade_grader import Grading, checks as c

ACCEPTED = {
    1: ("list all files, hidden included", [r"ls( -[A-Za-z]*[aA][A-Za-z]*| --all| --almost-all)+( \.)?"]),
    2: ("print the current folder", [r"pwd( -[LP])?", r"echo \$PWD"]),
    3: ("count the lines of data.txt", [r"wc -l (< ?)?data\.txt", r"cat data\.txt \| wc -l"]),
    4: ("manual page of grep", [r"man (1 )?grep"]),
    5: ("copy src recursively to backup", [r"cp -[A-Za-z]*[rRa][A-Za-z]* src/? backup/?"]),
    6: ("last 5 lines of log.txt", [r"tail (-n ?5|-5|--lines=5) log\.txt", r"cat log\.txt \| tail (-n ?5|-5)"]),
}

g = Grading.from_argv()
root = g.submission_root("QUIZ")
answers = c.parse_answers(root / "answers.txt") if root else {}
for num, (verif, patterns) in ACCEPTED.items():
    g.check(num, verif, lambda num=num, patterns=patterns: c.answer_matches(answers, num, patterns))
g.finish()
