// Planted for the layout check: not laid out as .clang-format says.
int   add( int a,int b ){return a+b;}
