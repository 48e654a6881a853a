"""``relnotes ask``: a cited answer for one question, optionally as a follow-up to the last one."""

from __future__ import annotations

import click

from .common import open_service, release_range, retrieval_options, skip_bad_corpus_option, staged_for
from .progress import notice


@click.command("ask")
@click.argument("question")
@retrieval_options
@skip_bad_corpus_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the batch schema).")
@click.option("--follow-up", "follow_up", is_flag=True,
              help="Read QUESTION as a follow-up to the last question in the history.")
@click.option("--no-history", is_flag=True, help="Do not record this question in the history.")
def ask_cmd(question, top_k, mode, releases, since, until, kinds, no_update, corpus_paths, index_dir, model_path, as_json,
            follow_up, no_history) -> None:
    """Answer QUESTION with ranked passages and their citations.

    Every question is recorded in the history ($RELNOTES_HISTORY, or history.jsonl in the
    user data folder) unless --no-history. With --follow-up, a question naming no release
    keeps the last question's release filter, and a short one ("and in 2.13?", "what about
    ROCm?", "how do I enable it?") is asked in the context of the last question; the
    output shows it as "asked as: ...".

    \b
    Examples:
      relnotes ask "which release added deterministic FlexAttention backward?"
      relnotes ask "what changed for MPS?" --release 2.14
      relnotes ask "nccl2 backend release:2.14" --mode bm25 --json
      relnotes ask "what changed for MPS in 2.14?" && relnotes ask --follow-up "and in 2.13?"
      relnotes ask "what breaks if I upgrade pydantic from 1.10 to 2.0?" --corpus HISTORY.md
      relnotes ask "what changed in the lockfile handling?" --since 1.70 --until 1.80
    """
    from ..history import History
    from ..conversation import Conversation

    span = release_range(since, until)
    history = History(warn=notice) if follow_up or not no_history else None
    service = open_service(corpus_paths, index_dir, model_path, no_update, dense=mode != "bm25",
                           staged=staged_for(mode))
    last = history.last() if follow_up else None
    if follow_up and last is None:
        notice("No earlier question in the history; asking this one on its own.")
    talk = Conversation(service, last.turn() if last else None)  # the chat reads follow-ups the same way
    if follow_up:
        follow, answer = talk.ask(question, top_k=top_k, mode=mode, releases=releases, kinds=kinds, span=span)
        if follow.inherited:
            notice(f"{follow.chip} (name a release or pass --release to change it)")
    else:
        answer = service.ask(question, top_k=top_k, mode=mode, releases=releases, kinds=kinds, span=span)
        talk.answered(answer)
    if not no_history:
        history.record(talk.turn)  # a warning is said by History's warn (notice)
    if as_json:
        from ..present.formats import answer_record, to_jsonl

        click.echo(to_jsonl(answer_record(answer, "1")))
        return
    from ..present.terminal import console, render_answer

    render_answer(answer, console())


COMMANDS = [ask_cmd]
