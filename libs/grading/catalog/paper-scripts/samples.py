"""Question and sample answers of paper-scripts (the paper's ~1 KB SPS payload)."""
from treespec import LEAK_GRADER, File, Tgz, Tree

T = "SCRIPTS"
ANSWERS_TEMPLATE = "# One answer per numbered line.\n1: \n2: \n3: \n"
HELLO_STUB = "#!/bin/sh\n# TODO: print the greeting asked in the statement\n"
HELLO_DONE = "#!/bin/sh\n# prints the greeting asked in the statement\necho \"Hello World\"\n"
CKIKI = "#!/bin/sh\n# Who is ckiki?\nfor w in shell on you; do printf '%s' \"$w\"; done\necho\n"
MESSAGE = (
    "Bonjour,\n"
    "voici les fichiers recus pour le TP shell de la semaine 3.\n"
    "Le script ckiki.sh affiche un mot : notez-le dans answers.txt.\n"
    "Le script hello.sh est incomplet, a vous de le terminer.\n"
    "Pensez aux droits d'execution (chmod) avant de le lancer.\n"
    "Archivez ensuite ce dossier avec tar et gzip, puis supprimez-le.\n"
    "A rendre avant vendredi 18h, sur la plateforme ShellOnYou.\n"
    "Bon courage, l'equipe pedagogique.\n"
)
LISTE = "".join(f"{i:02d} {name}\n" for i, name in enumerate(
    ["ls", "cd", "pwd", "chmod", "tar", "grep", "sort", "uniq", "cut", "wc", "ln"], start=1))
RECUE = (File("recue/message.txt", MESSAGE), File("recue/liste.txt", LISTE))


def question() -> Tree:
    return Tree([
        File(f"{T}/answers.txt", ANSWERS_TEMPLATE),
        File(f"{T}/hello.sh", HELLO_STUB),
        File(f"{T}/ckiki.sh", CKIKI),
        File(f"{T}/recue/message.txt", MESSAGE),
        File(f"{T}/recue/liste.txt", LISTE),
    ])


def answers(a1="shellonyou", a2="11", a3="chmod u+x hello.sh") -> File:
    return File(f"{T}/answers.txt", f"# One answer per numbered line.\n1: {a1}\n2: {a2}\n3: {a3}\n")


def good() -> Tree:
    return (question().copy().remove(f"{T}/recue")
            .put(answers()).put(File(f"{T}/hello.sh", HELLO_DONE, 0o744))
            .put(Tgz(f"{T}/recue.tgz", RECUE)))


def bad():
    not_executable = good().put(File(f"{T}/hello.sh", HELLO_DONE, 0o644))
    incomplete = (good().put(File(f"{T}/hello.sh", "#!/bin/sh\necho Hello\n", 0o755))
                  .put(answers(a1="ckiki")))
    kept_folder = question().copy().put(answers(a2="10")).put(File(f"{T}/hello.sh", HELLO_DONE, 0o700))
    return [
        ("not-executable", not_executable, [4]),
        ("incomplete-hello", incomplete, [1, 5]),
        ("no-recue-archive", kept_folder, [2, 7, 8]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    # hello.sh finishes the work at grading time in the grader's folder: archives and removes
    # recue/ in the submitted tree and overwrites the question's ckiki.sh with the modified copy.
    rewrite = ("#!/bin/sh\n"
               "cd /job/submission/SCRIPTS 2>/dev/null && tar czf recue.tgz recue && rm -rf recue\n"
               "cp ckiki.sh /job/question/SCRIPTS/ckiki.sh 2>/dev/null\n"
               "echo \"Hello World\"\n")
    kept = question().copy().put(answers(a2="10")).put(File(f"{T}/ckiki.sh", "#!/bin/sh\necho mine\n"))
    honest = kept.copy().put(File(f"{T}/hello.sh", HELLO_DONE, 0o700))
    rewrites = kept.copy().put(File(f"{T}/hello.sh", rewrite, 0o700))
    leaks = good().put(File(f"{T}/hello.sh", "#!/bin/sh\n" + LEAK_GRADER + "echo Hello\n", 0o755)).put(answers(a1="ckiki"))
    return [
        ("rewrites-the-graded-tree", rewrites, honest),
        ("prints-the-grader", leaks, bad_tree("incomplete-hello")),
    ]
