// Planted for the layout check: laid out right and not listed, so not reported.
int add(int a, int b) { return a + b; }
