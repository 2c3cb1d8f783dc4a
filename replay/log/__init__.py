"""Game logs: the ``replay-log/1`` format (its models and schema), the validator that replays a log
against the rules, and the words of its verdicts."""
