#!/usr/bin/env python3
"""Checks that no pattern of .dockerignore (the build context's, at the repository root) hides a file a COPY of a
Dockerfile of deploy/ needs.

  dockerignore_check.py REPO_ROOT [DOCKERFILE...]      (default: deploy/Dockerfile; paths from REPO_ROOT)
The ignore file's patterns are matched the way Docker does for the simple forms used there (path.Match
per path segment count, applied to the file and each of its parent directories).
"""
import fnmatch
import os
import sys


def main(root, dockerfiles):
    with open(os.path.join(root, ".dockerignore"), encoding="utf-8") as f:
        patterns = [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]
    sources = []
    for dockerfile in dockerfiles:
        with open(os.path.join(root, dockerfile), encoding="utf-8") as f:
            for line in f:
                words = line.split()
                if len(words) >= 3 and words[0] == "COPY" and not words[1].startswith("--from"):
                    sources += [w for w in words[1:-1] if not w.startswith("--")]

    def ignored(rel):
        parts = rel.split("/")
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        return any(fnmatch.fnmatchcase(p, pat) for pat in patterns for p in prefixes
                   if pat.count("/") == p.count("/"))

    bad, count = [], 0
    for src in sources:
        path = os.path.join(root, src.rstrip("/"))
        if os.path.isfile(path):
            files = [path]
        else:
            files = [os.path.join(d, name) for d, _, names in os.walk(path) for name in names]
        for file in files:
            rel = os.path.relpath(file, root)
            count += 1
            if ignored(rel):
                bad.append(rel)
    for rel in bad:
        print(f"ignored by .dockerignore but copied by the Dockerfile: {rel}")
    print(f"{count} files copied by {', '.join(dockerfiles)}, {len(patterns)} ignore patterns")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:] or ["deploy/Dockerfile"]))
