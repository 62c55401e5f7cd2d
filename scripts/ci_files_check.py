#!/usr/bin/env python3
"""Checks docs/ci/'s GitHub Actions workflow and GitLab CI file (issue 30 §3):
both parse as YAML, have the keys each CI needs, build once with a cached
.build, run `chatbench test --shard` over parallel jobs, publish the JUnit
report and the failures' HTML; docs/ci.md shows both files as they are.
actionlint is not installed here, so this is a check of shape, not of every
key GitHub or GitLab know."""
import re
import sys
from pathlib import Path

import yaml

root = Path(__file__).resolve().parent.parent
problems = []


def check(condition, what):
    if not condition:
        problems.append(what)


def github(path):
    doc = yaml.safe_load(path.read_text())
    # YAML 1.1 reads the key `on` as true.
    check(isinstance(doc, dict) and (doc.get("on") or doc.get(True)), f"{path}: no `on:` trigger")
    jobs = doc.get("jobs") or {}
    check(jobs, f"{path}: no jobs")
    for name, job in jobs.items():
        check("runs-on" in job, f"{path}: job {name} has no runs-on")
        check(job.get("steps"), f"{path}: job {name} has no steps")
        needs = job.get("needs", [])
        for need in [needs] if isinstance(needs, str) else needs:
            check(need in jobs, f"{path}: job {name} needs unknown job {need}")
        for step in job.get("steps", []):
            check(("uses" in step) != ("run" in step), f"{path}: job {name}: a step needs exactly one of uses and run: {step}")
    steps = [step for job in jobs.values() for step in job.get("steps", [])]
    uses = [step.get("uses", "") for step in steps]
    runs = "\n".join(step.get("run", "") for step in steps)
    cache = [step for step in steps if step.get("uses", "").startswith("actions/cache@")]
    check(cache and cache[0].get("with", {}).get("path") == ".build", f"{path}: .build is not cached")
    check(runs.count("swift build") == 1, f"{path}: not built exactly once")
    check(any("matrix" in job.get("strategy", {}) for job in jobs.values()), f"{path}: no matrix of shards")
    check(re.search(r"chatbench test .*--shard \$\{\{ matrix\.shard \}\}/", runs.replace("\\\n", " ")), f"{path}: no test --shard")
    check(
        re.search(r"chatbench explore .*--shard \$\{\{ matrix\.shard \}\}/\d+ .*--report", runs.replace("\\\n", " ")),
        f"{path}: no explore --shard with --report",
    )
    check("chatbench explore --merge" in runs, f"{path}: the explore shards' reports are not merged")
    for option in ["--junit", "--html-on-failure", "--annotations github"]:
        check(option in runs, f"{path}: chatbench test without {option}")
    uploads = [step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@")]
    check(any(step.get("if") == "always()" for step in uploads), f"{path}: reports are not uploaded when the tests fail")
    check(any(u.startswith("actions/checkout@") for u in uses), f"{path}: no checkout")


GITLAB_RESERVED = {"stages", "default", "variables", "include", "workflow", "image", "services", "cache", "before_script", "after_script"}


def gitlab(path):
    doc = yaml.safe_load(path.read_text())
    check(isinstance(doc, dict), f"{path}: not a mapping")
    stages = doc.get("stages", ["build", "test", "deploy"])
    jobs = {name: job for name, job in doc.items() if name not in GITLAB_RESERVED and not name.startswith(".")}
    check(jobs, f"{path}: no jobs")
    for name, job in jobs.items():
        check(isinstance(job.get("script"), list) and job["script"], f"{path}: job {name} has no script")
        check(job.get("stage", "test") in stages, f"{path}: job {name}'s stage is not in stages")
        for need in job.get("needs", []):
            check(need in jobs, f"{path}: job {name} needs unknown job {need}")
    scripts = "\n".join(line for job in jobs.values() for line in job.get("script", []))
    check(scripts.count("swift build") == 1, f"{path}: not built exactly once")
    check(any(".build/" in job.get("cache", {}).get("paths", []) for job in jobs.values()), f"{path}: .build is not cached")
    parallel = [job for job in jobs.values() if isinstance(job.get("parallel"), int) and job["parallel"] > 1]
    check(parallel, f"{path}: no parallel job")
    check('--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"' in scripts, f"{path}: no test --shard over the parallel jobs")
    check(
        any("chatbench explore" in line and "--shard" in line and "--report" in line for job in parallel for line in job["script"]),
        f"{path}: no explore --shard over parallel jobs",
    )
    check("chatbench explore --merge" in scripts, f"{path}: the explore shards' reports are not merged")
    for job in parallel:
        if not any("chatbench test" in line for line in job["script"]):
            continue
        artifacts = job.get("artifacts", {})
        check(artifacts.get("when") == "always", f"{path}: reports are not kept when the tests fail")
        junit = artifacts.get("reports", {}).get("junit")
        check(junit and f"--junit {junit}" in scripts, f"{path}: the JUnit report is not published")
        check("failures/" in artifacts.get("paths", []) and "--html-on-failure failures" in scripts, f"{path}: no HTML of failures")


def shown(doc, files):
    text = doc.read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    for file in files:
        check(file.read_text() in blocks, f"{doc}: does not show {file.relative_to(root)} as it is")


workflow, job = root / "docs/ci/github-workflow.yml", root / "docs/ci/gitlab-ci.yml"
github(workflow)
gitlab(job)
shown(root / "docs/ci.md", [workflow, job])
for problem in problems:
    print(problem, file=sys.stderr)
print(f"ci files: {'FAILED' if problems else 'ok'} (GitHub workflow, GitLab CI job, docs/ci.md)")
sys.exit(1 if problems else 0)
