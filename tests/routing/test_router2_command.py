"""Issue 12, second round: a parameter that takes a command line gets the whole command the
question writes ("using the exact command shutdown /s /t 0"), and such a command shows the
question is about the tool even when none of its description words is said. A question with
no command in it is not about the tool."""

from __future__ import annotations

import pytest

from playground.routing.command_line import command_span, takes_command
from tests.routing.helpers import move

EXECUTE = {
    "name": "cmd_controller.execute",
    "description": "Executes a specified command in the Windows operating system using the "
    "os.system() function.",
    "parameters": {
        "type": "object",
        "properties": {
            "command": {
                "type": "string",
                "description": "The command line instruction to be passed to os.system() for "
                "execution, formatted as a Windows command prompt statement.",
            },
            "unit": {
                "type": "string",
                "description": "The unit of measurement for the command execution time, such "
                "as 'seconds' or 'milliseconds'",
                "enum": ["seconds", "milliseconds"],
                "default": "N/A",
            },
        },
        "required": ["command"],
    },
}


@pytest.mark.parametrize(
    ("question", "command"),
    [
        (
            'is vs code running, using the command tasklist /FI "IMAGENAME eq Code.exe"',
            'tasklist /FI "IMAGENAME eq Code.exe"',
        ),
        ("shutdown the pc, using the exact command shutdown /s /t 0", "shutdown /s /t 0"),
        ("check whether the docker is installed using docker --version", "docker --version"),
        ("is docker running, please use docker ps to find out", "docker ps"),
        ("list file in desktop using dir Desktop", "dir Desktop"),
        ("show me today's date using the echo %date% command", "echo %date%"),
        (
            "set a timer for 10 seconds using the timeout command. You should use timeout 10.",
            "timeout 10",
        ),
        ("open calculator app using the command called start calc", "start calc"),
        (
            "list file in d drive and make file called testing.txt. This can be achieved through "
            "dir D:\\\\ && echo testing.txt.",
            "dir D:\\\\ && echo testing.txt",
        ),
        ("remove the timer.exe using the taskkill command", "taskkill"),
    ],
)
def test_the_command_parameter_takes_the_whole_command(question: str, command: str) -> None:
    mv = move(question, EXECUTE)
    assert [c.name for c in mv.calls] == ["cmd_controller.execute"]
    assert mv.calls[0].args["command"] == command
    ev = mv.explanation["tools"][0]["arg_evidence"]["command"]
    assert (ev["rule"], ev["text"]) == ("command", command)


@pytest.mark.parametrize(
    "question",
    [
        "Calculate the area under the curve y=x^2 using the trapezoidal method.",
        "Find the GCD of 36 and 48 using the Euclidean algorithm.",
        "What is the weather in Boston today?",
    ],
)
def test_a_question_without_a_command_is_not_about_the_tool(question: str) -> None:
    mv = move(question, EXECUTE)
    assert mv.calls == []


def test_only_command_parameters_take_commands() -> None:
    spec = EXECUTE["parameters"]["properties"]
    assert takes_command("command", spec["command"]["description"])
    assert not takes_command("unit", spec["unit"]["description"])
    assert takes_command("shell_cmd", "")
    assert command_span("Find the GCD of 36 and 48 using the Euclidean algorithm.", []) is None
    span = command_span("use docker ps", [(4, 10)])  # another argument took 'docker'
    assert span is None
