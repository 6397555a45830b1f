"""The research adapters: Patchwork for OpenSpiel, PettingZoo and Gymnasium,
and the numeric encodings they share. One module each:

- :mod:`patchsolve.interop.actions`: the fixed numbering of every move (action
  numbers ``0 .. NUM_ACTIONS - 1``) and the legal-action mask;
- :mod:`patchsolve.interop.observation`: a position as 432 float32 numbers seen
  by one player;
- :mod:`patchsolve.interop.episode`: one game as the environments see it (the
  start drawn at reset, actions in, observations, rewards and pictures out);
- :mod:`patchsolve.interop.openspiel`: the OpenSpiel game ``"patchwork"`` (the
  ``[openspiel]`` extra);
- :mod:`patchsolve.interop.env`: the PettingZoo AEC environment (the
  ``[pettingzoo]`` extra);
- :mod:`patchsolve.interop.gym`: the single-agent Gymnasium environment,
  registered as ``"patchsolve/Patchwork-v0"`` (the ``[pettingzoo]`` extra).

Importing the package imports none of them: ``actions``, ``observation`` and
``episode`` need only numpy; the last three need their extra and say which
when it is missing.
"""
