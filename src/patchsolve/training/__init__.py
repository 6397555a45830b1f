"""Training the learned evaluation: self-play generation (``selfplay``) and
the least-squares fit that writes ``data/eval_weights.json`` (``fit``).
``benchmarks/tools/train_eval.py`` runs both. Needs only numpy (the ``[train]``
extra); nothing here is imported at search time."""
