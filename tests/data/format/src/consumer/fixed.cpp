// Planted for the layout check: listed as pending but laid out right now.
int twice(int a) { return 2 * a; }
