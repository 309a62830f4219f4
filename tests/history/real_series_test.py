#!/usr/bin/env python3
"""A real series end to end (docs/history.md, "A real series, tested"): a throwaway git
repository of 60 commits whose 41st makes the cpu-hotspot payload do more work (its `elements`
file, read as the payload's argument, goes from 64 to 72); at each commit one real
`aorta sweep run` under callgrind (one trial: Ir is exact) and `aorta history add` (commit, branch
and time from git); then `aorta history changes --json` must name the 41st commit for the Ir of
`expensive` and no other commit in that series, and `aorta report --history` must write
report.html with that series' trend: 60 points, one change. Where Chromium is installed the page
is rendered headless: its script must draw every chart (the medians path of the series holds
60 ticks), log nothing to the console, and the screenshot must not be blank.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

COMMITS = 60
PLANTED = 40  # index of the first commit after the step


def run(argv, cwd=None, env=None):
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, cwd=cwd, env=env)
    if done.returncode != 0:
        sys.exit(f"FAIL: {' '.join(map(str, argv))} exited {done.returncode}:\n"
                 f"{done.stdout}{done.stderr}")
    return done


def build_series(options, work, repo, store):
    shas = []
    for i in range(COMMITS):
        (repo / "elements").write_text(f"{64 if i < PLANTED else 72}\n")
        (repo / "revision").write_text(f"{i}\n")
        stamp = f"2026-01-0{1 + i // 24}T{i % 24:02d}:00:00Z"
        env = dict(os.environ, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
        run(["git", "-C", repo, "add", "elements", "revision"])
        run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", repo, "commit", "-q", "-m",
             f"commit {i}"], env=env)
        shas.append(run(["git", "-C", repo, "rev-parse", "HEAD"]).stdout.strip())
        elements = (repo / "elements").read_text().strip()
        output = work / "runs" / f"c{i:02d}" / "hotspot"
        run([options.aorta, "sweep", "run", "--recipe", options.recipe, "--output", output, "--",
             options.payload, elements, 32], cwd=repo)
        run([options.aorta, "history", "add", output.parent, "--history", store], cwd=repo)
    return shas


def check_changes(options, store, shas):
    report = json.loads(run([options.aorta, "history", "changes", "--json", "--history",
                             store]).stdout)
    expensive = [c for c in report["changes"] if c["quantity"].startswith("callgrind_ir.expensive")]
    if [c["commit"] for c in expensive] != [shas[PLANTED]]:
        sys.exit(f"FAIL: the Ir of expensive should change at {shas[PLANTED]} only; changes: "
                 f"{json.dumps(expensive, indent=1)}")
    if not expensive[0]["delta_percent"] > 10:
        sys.exit(f"FAIL: 64 -> 72 elements is +12.5% of expensive's Ir: {expensive[0]}")
    print(f"changes: expensive's Ir {expensive[0]['delta_percent']:+.2f}% at commit {PLANTED + 1} "
          f"({shas[PLANTED][:12]}), p {expensive[0]['p']}; {len(report['changes'])} change(s) in "
          f"{report['series']} series")


def check_report(options, work, store, shas):
    results = work / "runs" / f"c{COMMITS - 1:02d}"
    run([options.aorta, "report", results, "--history", store])
    page = (results / "report.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="aorta-trends">(.*?)</script>',
                                page, re.S).group(1))
    series = [s for s in data["s"] if s["q"].startswith("callgrind_ir.expensive")]
    if len(series) != 1 or len(series[0]["p"]) != COMMITS:
        sys.exit(f"FAIL: report.html should hold expensive's series with {COMMITS} points")
    if [x[0] for x in series[0]["x"]] != [PLANTED] or data["c"][series[0]["p"][PLANTED][0]] != shas[PLANTED]:
        sys.exit(f"FAIL: the trend's change should be at point {PLANTED}: {series[0]['x']}")
    print(f"report.html: {len(data['s'])} trend series, {len(page)} bytes")
    return results / "report.html", data["s"].index(series[0])


def render(work, page, index):
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or \
        shutil.which("google-chrome")
    if not browser:
        print("report.html not rendered: no Chromium on PATH")
        return
    common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              f"--user-data-dir={work / 'profile'}", "--no-first-run", "--disable-extensions",
              "--window-size=1280,1800", "--enable-logging=stderr", "--v=0"]
    dom = subprocess.run([*common, "--dump-dom", f"file://{page}"], capture_output=True,
                         text=True, timeout=90)
    if re.search(r":CONSOLE[:(]", dom.stderr):
        sys.exit(f"FAIL: report.html logged to the console:\n{dom.stderr}")
    medians = re.findall(r'<path d="([^"]*)" class="med"', dom.stdout)
    charts = dom.stdout.count('class="chart trend-chart"')
    if charts == 0 or index >= len(medians) or medians[index].count("h3") != COMMITS:
        sys.exit(f"FAIL: the page's script did not draw the trends ({charts} chart(s))")
    shot = work / "report.png"
    subprocess.run([*common, f"--screenshot={shot}", f"file://{page}"], capture_output=True,
                   timeout=90, check=True)
    run([sys.executable, Path(__file__).parent.parent / "report" / "png_not_blank.py", shot])
    print(f"report.html rendered by {Path(browser).name}: {charts} trend charts drawn")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--aorta", required=True)
    parser.add_argument("--payload", required=True, help="the cpu-hotspot example's executable")
    parser.add_argument("--recipe", required=True, help="its recipe.yaml")
    parser.add_argument("--workdir", required=True)
    options = parser.parse_args()
    work = Path(options.workdir).resolve()
    shutil.rmtree(work, ignore_errors=True)
    repo = work / "repo"
    repo.mkdir(parents=True)
    run(["git", "init", "-q", "-b", "main", repo])
    store = work / "history.sqlite"
    shas = build_series(options, work, repo, store)
    check_changes(options, store, shas)
    page, index = check_report(options, work, store, shas)
    render(work, page, index)


if __name__ == "__main__":
    main()
