"""`chatbench serve` as a child process, for the scripts that kill and
restart it (kill_restart.py, kill_restart_sdk.py). Standard library only."""
import re
import subprocess
import sys


def start(binary, db, port, name="chatbench serve"):
    """Starts the server on `db` and `port` (0: any) once it listens;
    returns the process and its port. Exits naming `name` when it did not."""
    proc = subprocess.Popen([binary, "serve", "--port", str(port), "--db", db, "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        sys.exit(f"{name}: the server did not start: {line!r}")
    return proc, int(match.group(1))
