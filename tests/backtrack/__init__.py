"""Which regular expressions can backtrack without end, from their parse trees alone.

Python's ``re`` matches by backtracking: when one path through the pattern fails, it goes
back and tries every other path that reads the same text. One path per text costs time in
proportion to the text; many paths cost much more, and two shapes of pattern make many:

* **a loop read two ways**, like ``(a+)+$``, ``(a|a)*$`` or ``(?:(?:kh|k)[lh]?1)*!``: each
  turn round the loop doubles the paths, so a failing text of n turns tries 2^n of them;
* **two loops in a row that read the same text**, like ``\\s*\\s*x`` or
  ``\\s+as\\s+([^:]+?)\\s*:``: each split of the text between them is tried, n^2 for two
  loops, n^3 for three. A search tries the pattern at every start, which is one loop more in
  front of it: ``\\s+x`` searched in n spaces takes n^2 steps.

This is the ambiguity of the pattern's automaton, which is how Weideman, van der Merwe,
Berglund and Watson (2016) bound a backtracking matcher's worst case; :func:`analyse` looks
for both shapes (:mod:`.automaton` builds the automaton, :mod:`.ambiguity` searches it).

How the pattern is run matters, and :class:`Mode` says how: a search (``sub``, ``findall``,
``split`` and the like too) has the loop over start positions in front, a ``match`` hasn't.
Both stop at the first success, so loops in a row are harmless when the second one can end
the match wherever it stops (``[^a-z]+`` in a ``sub``): the first text it reads is a match. A
``fullmatch`` must reach the end of the text, so nothing is let off there.
"""
