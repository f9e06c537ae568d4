"""The engine: productions compiled to one Experta engine per rulebook, and rulings."""
