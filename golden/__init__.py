"""Golden model of the FlexGripPlus / G80 SM_1.0 streaming multiprocessor (numpy only)."""
