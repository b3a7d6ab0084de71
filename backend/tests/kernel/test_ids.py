"""Row ids: version-4 UUIDs as text, never repeated across threads or a fork."""

from __future__ import annotations

import os
import threading
import uuid

from servicematch.kernel.ids import new_id


def test_an_id_is_a_random_uuid_as_text():
    made = new_id()
    parsed = uuid.UUID(made)
    assert str(parsed) == made
    assert (parsed.version, parsed.variant) == (4, uuid.RFC_4122)


def test_ids_made_at_once_by_many_threads_are_all_different():
    made: list[list[str]] = []

    def make() -> None:
        made.append([new_id() for _ in range(2_000)])

    threads = [threading.Thread(target=make) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [one for batch in made for one in batch]
    assert len(set(every)) == len(every) == 16_000


def test_a_forked_child_does_not_repeat_its_parents_next_ids():
    new_id()  # this thread's pool holds the bytes the next ids come from
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child reports through the pipe)
        os.close(reading)
        os.write(writing, ",".join(new_id() for _ in range(10)).encode())
        os._exit(0)
    os.close(writing)
    mine = {new_id() for _ in range(10)}
    with os.fdopen(reading) as pipe:
        childs = set(pipe.read().split(","))
    os.waitpid(child, 0)
    assert len(childs) == 10 and not mine & childs
