"""Ruling records, their verification codes and the tournament register."""
