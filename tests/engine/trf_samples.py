"""TRF samples shared by engine and web tests (not a test module).

``EMPTY_ROUND_7``: 8 players, 8 rounds, round 7 without a game (every player ``0000 - Z``:
the simulated arbiter excused everyone), cut before round 8, with ``XXZ 2 3 6`` for round 8.
Rounds 1-7 are the generator's

    python -m pairing.engine --dubov -g --players 8 --rounds 8 --seed 118 \\
        --withdrawal-rate 0.01 --bye-rate 0 --played 7

(every round paired by the engine; in round 7 no pairing was possible and the arbiter
excused one player after the other).  The ``012`` line is ours and ``XXZ 7 8`` became
``XXZ 2 3 6`` (8, absent since round 2, comes back), so that round 8 is the one of the
independent check's example (issue 22, whose own file is not available): 5-4, 7-8, PAB 1.
Why: of the five players present only
1 and 8 may take the PAB (4, 7 had one, 5 a forfeit win, C2); 8 has the lower score but 1
has met 4, 5 and 7 and could only play 8 (2.1.2), so 1 gets it; 5 (3 points) takes 4 as
upfloater, 7 (2) takes 8.

``EMPTY_ROUND_7_THEN_8``: the same tournament with round 8 played as paired (5-4 1-0,
7-8 drawn, PAB 1, 2 3 6 absent).
"""

EMPTY_ROUND_7 = (
    "012 Empty round 7 (everyone excused), cut before round 8\n"
    "001    1      Player 1                          2456                             5.5    1     5 w 1     3 b 1     2 w 1     6 b 1     4 b 1     7 w =  0000 - Z\n"
    "001    2      Player 2                          2438                             3.5    3     6 b =     4 w =     1 b 0     7 w =  0000 - U     5 w 1  0000 - Z\n"
    "001    3      Player 3                          2294                             4.0    2     7 w 1     1 w 0     4 b 1     5 b -     5 b 1  0000 - U  0000 - Z\n"
    "001    4      Player 4                          1741                             2.0    6     8 b =     2 b =     3 w 0  0000 - U     1 w 0     6 b 0  0000 - Z\n"
    "001    5      Player 5                          1639                             3.0    5     1 b 0     6 w 1     7 b 1     3 w +     3 w 0     2 b 0  0000 - Z\n"
    "001    6      Player 6                          1601                             3.5    4     2 w =     5 b 0  0000 - U     1 w 0     7 b 1     4 w 1  0000 - Z\n"
    "001    7      Player 7                          1373                             2.0    7     3 b 0  0000 - U     5 w 0     2 b =     6 w 0     1 b =  0000 - Z\n"
    "001    8      Player 8                          1202                             0.5    8     4 w =  0000 - Z  0000 - Z  0000 - Z  0000 - Z  0000 - Z  0000 - Z\n"
    "XXR 8\n"
    "XXC white1\n"
    "XXS WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=1 FW=1 FL=0\n"
    "XXZ 2 3 6\n"
)

EMPTY_ROUND_7_THEN_8 = (
    "012 Empty round 7 (everyone excused), round 8 played\n"
    "001    1      Player 1                          2456                             6.5          5 w 1     3 b 1     2 w 1     6 b 1     4 b 1     7 w =  0000 - Z  0000 - U\n"
    "001    2      Player 2                          2438                             3.5          6 b =     4 w =     1 b 0     7 w =  0000 - U     5 w 1  0000 - Z  0000 - Z\n"
    "001    3      Player 3                          2294                             4.0          7 w 1     1 w 0     4 b 1     5 b -     5 b 1  0000 - U  0000 - Z  0000 - Z\n"
    "001    4      Player 4                          1741                             2.0          8 b =     2 b =     3 w 0  0000 - U     1 w 0     6 b 0  0000 - Z     5 b 0\n"
    "001    5      Player 5                          1639                             4.0          1 b 0     6 w 1     7 b 1     3 w +     3 w 0     2 b 0  0000 - Z     4 w 1\n"
    "001    6      Player 6                          1601                             3.5          2 w =     5 b 0  0000 - U     1 w 0     7 b 1     4 w 1  0000 - Z  0000 - Z\n"
    "001    7      Player 7                          1373                             2.5          3 b 0  0000 - U     5 w 0     2 b =     6 w 0     1 b =  0000 - Z     8 w =\n"
    "001    8      Player 8                          1202                             1.0          4 w =  0000 - Z  0000 - Z  0000 - Z  0000 - Z  0000 - Z  0000 - Z     7 b =\n"
    "XXR 8\n"
    "XXC white1\n"
    "XXS WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=1 FW=1 FL=0\n"
)
