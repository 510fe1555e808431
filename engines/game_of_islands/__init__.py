"""The Game of Islands: two players draw straight lines through unused dots and claim islands."""
