"""Game reviews: every decision judged, the luck of every roll and deal measured."""
