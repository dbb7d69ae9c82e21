#!/usr/bin/env python3
"""Pseudonymise a git log on stdin: every person (Author:, Commit:, and
Co-authored-by:/Signed-off-by: trailers) becomes "Person NN
<person-NN@example.invalid>" (same person, same pseudonym, numbered in
order of appearance), their names elsewhere in messages too; other e-mail
addresses become address@example.invalid, @mentions @user, and the owner
of a merged branch ("from owner/branch") owner-NN."""
import re
import sys

t = sys.stdin.read()
names = {}


def nm(n):
    n = n.strip()
    if n not in names:
        names[n] = len(names) + 1
    return names[n]


t = re.sub(r'^(Author|Commit|\s+Co-authored-by|\s+Signed-off-by):(\s+)(.+?) <[^>]*>',
           lambda m: f"{m.group(1)}:{m.group(2)}Person {nm(m.group(3)):02d} <person-{nm(m.group(3)):02d}@example.invalid>",
           t, flags=re.M | re.I)
t = re.sub(r'[\w.+-]+@[\w-]+(\.[\w-]+)+',
           lambda m: m.group(0) if m.group(0).endswith('example.invalid') else 'address@example.invalid', t)
for n, i in sorted(names.items(), key=lambda x: -len(x[0])):
    if len(n) >= 4:
        t = t.replace(n, f"Person {i:02d}")
owners = {}


def owner(m):
    n = m.group(1)
    if n not in owners:
        owners[n] = len(owners) + 1
    return f"from owner-{owners[n]:02d}/"


t = re.sub(r'from ([A-Za-z0-9][\w.-]*)/', owner, t)
t = re.sub(r'@([A-Za-z0-9][\w-]{1,38})\b', lambda m: m.group(0) if m.group(0).startswith('@example') else '@user', t)
sys.stdout.write(t)
