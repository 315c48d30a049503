"""Writing a scripted session as each agent writes its transcript (JSONL).

A script is a list of steps: ``U(text)`` the person, ``A(text)`` the agent's
prose, ``Bash(command, output, failed)`` a shell call and its result, ``Edit(path)``
and ``Read(path)`` file tools. A step may carry a marked lesson (``lesson=(kind,
phrase)``): ``write_session`` returns, for each, the id the parser gives the
message (a Claude uuid, a Gemini message id, a Codex 1-based position).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Lesson = tuple[str, str | list[str]]  # (kind, the phrase, or phrases, a draft must hold)


@dataclass(frozen=True)
class U:
    text: str
    lesson: Lesson | None = None


@dataclass(frozen=True)
class A:
    text: str
    lesson: Lesson | None = None


@dataclass(frozen=True)
class Bash:
    command: str
    output: str
    failed: bool = False


@dataclass(frozen=True)
class Edit:
    path: str


@dataclass(frozen=True)
class Read:
    path: str
    output: str = "(file contents)"


Step = U | A | Bash | Edit | Read


def _time(n: int) -> str:
    return f"2026-03-{1 + n // 3600 % 28:02d}T{9 + n // 60 % 12:02d}:{n % 60:02d}:00.000Z"


def write_session(path: Path, agent: str, session: str, steps: list[Step]) -> list[Any]:
    """Write ``steps`` as ``agent``'s transcript; its marked lessons: (kind, message id, phrase)."""
    writer = {"claude": _claude, "codex": _codex, "gemini": _gemini}[agent]
    records, marked = writer(session, steps)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return marked


def _claude(
    session: str, steps: list[Step]
) -> tuple[list[dict[str, Any]], list[tuple[str, str, str]]]:
    records: list[dict[str, Any]] = []
    marked: list[tuple[str, str, str]] = []
    parent: str | None = None
    base = {
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/app",
        "sessionId": session,
        "version": "2.1.12",
        "gitBranch": "main",
    }

    def put(kind: str, content: Any, **more: Any) -> str:
        nonlocal parent
        n = len(records)
        uuid = f"{session[:8]}-{n:04d}-4000-8000-{n:012d}"
        message: dict[str, Any] = {"role": kind, "content": content}
        if kind == "assistant":
            message = {
                "id": f"msg_{n:04d}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": content,
                "stop_reason": None,
                "usage": {"input_tokens": 10, "output_tokens": 20},
            }
        records.append(
            {
                "parentUuid": parent,
                **base,
                "type": kind,
                "message": message,
                "uuid": uuid,
                "timestamp": _time(n),
                **more,
            }
        )
        parent = uuid
        return uuid

    def tool(name: str, tool_input: dict[str, Any], output: str, failed: bool) -> None:
        call = f"toolu_{len(records):04d}"
        put("assistant", [{"type": "tool_use", "id": call, "name": name, "input": tool_input}])
        result: dict[str, Any] = {"type": "tool_result", "tool_use_id": call, "content": output}
        if failed:
            result["is_error"] = True
        put("user", [result], toolUseResult={"stdout": output} if name == "Bash" else {})

    for step in steps:
        if isinstance(step, U):
            uuid = put("user", step.text)
        elif isinstance(step, A):
            uuid = put("assistant", [{"type": "text", "text": step.text}])
        elif isinstance(step, Bash):
            tool("Bash", {"command": step.command, "description": "Run"}, step.output, step.failed)
            continue
        elif isinstance(step, Edit):
            tool(
                "Edit",
                {"file_path": step.path, "old_string": "a", "new_string": "b"},
                f"The file {step.path} has been updated.",
                False,
            )
            continue
        else:
            tool("Read", {"file_path": step.path}, step.output, False)
            continue
        if step.lesson:
            marked.append((step.lesson[0], uuid, step.lesson[1]))
    return records, marked


def _codex(
    session: str, steps: list[Step]
) -> tuple[list[dict[str, Any]], list[tuple[str, str, str]]]:
    records: list[dict[str, Any]] = [
        {
            "timestamp": _time(0),
            "type": "session_meta",
            "payload": {
                "id": session,
                "timestamp": _time(0),
                "cwd": "/home/dev/app",
                "originator": "codex_cli_rs",
                "cli_version": "0.46.0",
            },
        },
        {
            "timestamp": _time(0),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<environment_context>\n  <cwd>/home/dev/app</cwd>\n"
                        "</environment_context>",
                    }
                ],
            },
        },
    ]
    marked: list[tuple[str, str, str]] = []
    position = 0  # messages the parser gives (the environment context gives none)

    def item(payload: dict[str, Any]) -> None:
        records.append(
            {"timestamp": _time(len(records)), "type": "response_item", "payload": payload}
        )

    for step in steps:
        if isinstance(step, (U, A)):
            role = "user" if isinstance(step, U) else "assistant"
            block = "input_text" if role == "user" else "output_text"
            item({"type": "message", "role": role, "content": [{"type": block, "text": step.text}]})
            position += 1
            if role == "user":
                records.append(
                    {
                        "timestamp": _time(len(records)),
                        "type": "event_msg",
                        "payload": {"type": "user_message", "message": step.text},
                    }
                )
            if step.lesson:
                marked.append((step.lesson[0], str(position), step.lesson[1]))
            continue
        call = f"call_{len(records):04d}"
        if isinstance(step, Bash):
            item(
                {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": call,
                    "arguments": json.dumps({"command": ["bash", "-lc", step.command]}),
                }
            )
            code = 1 if step.failed else 0
            output = {
                "output": step.output,
                "metadata": {"exit_code": code, "duration_seconds": 0.4},
            }
            item({"type": "function_call_output", "call_id": call, "output": json.dumps(output)})
        elif isinstance(step, Edit):
            patch = f"*** Begin Patch\n*** Update File: {step.path}\n@@\n-a\n+b\n*** End Patch"
            item(
                {"type": "custom_tool_call", "name": "apply_patch", "call_id": call, "input": patch}
            )
            item(
                {
                    "type": "custom_tool_call_output",
                    "call_id": call,
                    "output": json.dumps(
                        {
                            "output": f"Success. Updated the following files:\nM {step.path}\n",
                            "metadata": {"exit_code": 0},
                        }
                    ),
                }
            )
        else:
            item(
                {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": call,
                    "arguments": json.dumps({"command": ["bash", "-lc", f"cat {step.path}"]}),
                }
            )
            item(
                {
                    "type": "function_call_output",
                    "call_id": call,
                    "output": json.dumps({"output": step.output, "metadata": {"exit_code": 0}}),
                }
            )
        position += 2
    return records, marked


def _gemini(
    session: str, steps: list[Step]
) -> tuple[list[dict[str, Any]], list[tuple[str, str, str]]]:
    records: list[dict[str, Any]] = [
        {
            "sessionId": session,
            "projectHash": "5f1c0e9a7b",
            "startTime": _time(0),
            "lastUpdated": _time(0),
            "kind": "main",
        },
    ]
    marked: list[tuple[str, str, str]] = []
    current: dict[str, Any] | None = None  # the gemini message tool calls attach to

    for n, step in enumerate(steps):
        key = f"{session[:6]}-m{n:03d}"
        if isinstance(step, U):
            current = None
            records.append(
                {"id": key, "timestamp": _time(n), "type": "user", "content": [{"text": step.text}]}
            )
        elif isinstance(step, A):
            current = {
                "id": key,
                "timestamp": _time(n),
                "type": "gemini",
                "content": step.text,
                "model": "gemini-2.5-pro",
                "toolCalls": [],
            }
            records.append({k: v for k, v in current.items() if k != "toolCalls"})
        else:
            if current is None:
                current = {
                    "id": key,
                    "timestamp": _time(n),
                    "type": "gemini",
                    "content": "",
                    "model": "gemini-2.5-pro",
                    "toolCalls": [],
                }
            if isinstance(step, Bash):
                name, args, output, status = (
                    "run_shell_command",
                    {"command": step.command},
                    step.output,
                    "error" if step.failed else "success",
                )
            elif isinstance(step, Edit):
                name, args, output, status = (
                    "replace",
                    {"file_path": step.path, "old_string": "a", "new_string": "b"},
                    "Successfully modified file.",
                    "success",
                )
            else:
                name, args, output, status = (
                    "read_file",
                    {"absolute_path": step.path},
                    step.output,
                    "success",
                )
            call = {
                "id": f"{key}-call",
                "name": name,
                "args": args,
                "status": status,
                "timestamp": _time(n),
                "result": [
                    {
                        "functionResponse": {
                            "id": f"{key}-call",
                            "name": name,
                            "response": {"output": output},
                        }
                    }
                ],
            }
            current["toolCalls"] = [*current["toolCalls"], call]
            records.append(dict(current))
            continue
        if step.lesson:
            marked.append((step.lesson[0], key, step.lesson[1]))
    return records, marked
