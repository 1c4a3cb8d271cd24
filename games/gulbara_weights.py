"""Weights of the Gul Bara hard player's learned evaluation (generated, do not edit).

Regenerate with

    python -m bench.train_gulbara --rounds 2 --games 1000 --jobs 2 --seed 1

One weight per entry of ``games.gulbara.position_features``, log-odds of a win.
"""

WEIGHTS = (
    -0.111304,
    0.348102,
    0.107404,
    0.290652,
    0.548857,
    2.042202,
    -0.198271,
    0.209545,
    -0.220359,
    0.577211,
    -0.189861,
    -0.035161,
    -0.273112,
    -0.205923,
    -0.322535,
    0.157568,
    -2.668542,
    0.169115,
    -0.292763,
    0.377308,
    -0.585705,
    0.178635,
    -0.034339,
    0.305626,
    0.306904,
    0.603192,
    -0.227721,
)
