"""Agent quality evaluation: scripted conversations, judged on outcome and tool trajectory
(``python -m eval``; see eval/dataset.py)."""
