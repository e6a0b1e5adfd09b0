"""A throwaway PostgreSQL cluster for the tests: initdb into a temporary folder, serve on 127.0.0.1.

The store tests run against PostgreSQL as well as SQLite. `.ci/run` starts one cluster for the
whole run and hands its address over in KEYSTONE_TEST_POSTGRES; a local run without it starts its
own (one per test process). initdb refuses to run as root, so as root the server runs as the
`postgres` user. Where PostgreSQL's server programs are missing the PostgreSQL tests are skipped
with a sentence saying why, unless KEYSTONE_REQUIRE_POSTGRES=1 (as in CI) makes that a failure.

    python -m tests.postgres_cluster start FOLDER   # prints the server's URL
    python -m tests.postgres_cluster stop FOLDER
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SERVER_URL_VARIABLE = "KEYSTONE_TEST_POSTGRES"
"""A running server's URL (`postgresql://user@host:port/postgres`) the tests may create databases on."""
REQUIRE_VARIABLE = "KEYSTONE_REQUIRE_POSTGRES"
PROGRAMS_VARIABLE = "KEYSTONE_PG_BIN"
"""The folder holding initdb and pg_ctl, when they are not on PATH or in Debian's usual place."""
USER = "keystone"
SPEED_ONLY = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
"""A throwaway cluster need not survive a power cut; durability settings only slow the tests."""


class NoServerPrograms(RuntimeError):
    """PostgreSQL's server programs are not installed here."""


def server_programs() -> Path:
    """The folder with initdb and pg_ctl: KEYSTONE_PG_BIN, PATH, or the newest /usr/lib/postgresql/N/bin."""
    given = os.environ.get(PROGRAMS_VARIABLE)
    found = shutil.which("initdb")
    candidates = [given] if given else []
    if found:
        candidates.append(str(Path(found).parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    raise NoServerPrograms(
        "PostgreSQL's server programs (initdb and pg_ctl) are not installed here, so the PostgreSQL "
        f"tests are skipped; install PostgreSQL or set {PROGRAMS_VARIABLE} to the folder that holds them."
    )


def _version(folder: str) -> float:
    try:
        return float(Path(folder).parent.name)
    except ValueError:
        return 0.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    """initdb and postgres refuse root; run them as the `postgres` user then."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@dataclass
class Cluster:
    """One PostgreSQL server in `folder`, listening on 127.0.0.1:`port`."""

    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    @classmethod
    def start(cls, folder: Path | None = None, *, fast: bool = True) -> Cluster:
        """`fast=False` keeps PostgreSQL's durability settings (for benchmarks that time synced commits)."""
        programs = server_programs()
        folder = Path(folder or tempfile.mkdtemp(prefix="keystone-pg-"))
        folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
        data = folder / "data"
        _run(_as_server_user([str(programs / "initdb"), "-D", str(data), "-A", "trust", "-U", USER,
                              "--no-sync", "-E", "UTF8", "--locale=C"]))
        cluster = cls(folder, _free_port())
        options = f"-k {folder} -p {cluster.port} -c listen_addresses=127.0.0.1 -c max_connections=200"
        options += f" {SPEED_ONLY}" if fast else ""
        _run(_as_server_user([str(programs / "pg_ctl"), "-D", str(data), "-o", options,
                              "-l", str(folder / "server.log"), "-w", "start"]))
        (folder / "url").write_text(cluster.url)
        return cluster

    @classmethod
    def at(cls, folder: Path) -> Cluster:
        """The cluster `start` left in `folder` (to stop it from another process)."""
        url = (folder / "url").read_text()
        return cls(folder, int(url.rsplit(":", 1)[1].split("/")[0]))

    def stop(self) -> None:
        """Stop at once (nothing here needs keeping) and delete the folder."""
        programs = server_programs()
        subprocess.run(_as_server_user([str(programs / "pg_ctl"), "-D", str(self.folder / "data"),
                                        "-m", "immediate", "-w", "stop"]), capture_output=True, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


async def fresh_database(server: str, name: str) -> str:
    """The URL of an empty database `name` on the server at URL `server` (dropped first if there)."""
    import asyncpg

    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return server.rsplit("/", 1)[0] + "/" + name


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{Path(command[-1]).name if command else 'command'} failed: {done.stderr or done.stdout}")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: python -m tests.postgres_cluster start|stop FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[1])
    if argv[0] == "start":
        print(Cluster.start(folder).url)
    else:
        Cluster.at(folder).stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
