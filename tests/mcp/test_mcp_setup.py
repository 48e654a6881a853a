"""The MCP set-up the README and docs/agents.md give, run as written: the agent's command line
starts this checkout's relnotes, which answers the handshake and lists its tools."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.mcp.test_mcp_server import TOOLS, server_env
from tests.support.paths import REPO

RELNOTES = Path(sys.executable).parent / "relnotes"  # the checkout's .venv/bin/relnotes, as make installs it


def documented(path: Path) -> list[str]:
    """The command after ``claude mcp add relnotes --`` in ``path``, as a shell would split it."""
    line = next(m.group(1) for m in re.finditer(r"claude mcp add relnotes -- (.+?)(?:`|$)", path.read_text(), re.M))
    return shlex.split(line.replace("$PWD", str(REPO)))


@pytest.mark.parametrize("doc", ["README.md", "docs/agents.md"])
def test_the_documented_command_names_the_checkouts_relnotes(doc: str) -> None:
    command = documented(REPO / doc)
    assert command[0] == str(REPO / ".venv" / "bin" / "relnotes") and command[1] == "mcp"


@pytest.mark.skipif(not RELNOTES.is_file() or RELNOTES.parent.parent.parent != REPO,
                    reason="the tests do not run from this checkout's .venv")
async def test_the_documented_command_starts_the_server(bundled_index: Path) -> None:
    command = documented(REPO / "docs" / "agents.md")
    args = [*command[1:command.index("--corpus")], "--index", str(bundled_index)]  # the test's index, not ~/notes
    params = StdioServerParameters(command=command[0], args=args, env=server_env())
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
