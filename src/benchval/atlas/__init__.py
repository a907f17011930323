"""The validity atlas: real leaderboard tables (the mirror's benchbench/ and obsscaling/), one model
registry across them, and which benchmark predicts which criterion (docs/atlas.md)."""
