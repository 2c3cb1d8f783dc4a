"""From a rule to its code and back: ``replay trace`` (clause, function, phrase), ``replay coverage``
(every clause implemented, tested or excused) and the index of the tests tagged with each clause."""
