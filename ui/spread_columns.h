#pragma once
// Table columns that fill their table without one wide empty column. A table whose last section
// stretches gives all the spare width to that column: the Simplify dialog, widened to 1000
// pixels, showed four narrow columns and a "Within tolerance" column of 650 pixels holding "yes"
// or "no". Here every column is as wide as its contents and header, and when the table is wider
// than their sum the spare width is shared out among the columns in proportion to those widths;
// when it is narrower the table scrolls. Kept up to date as the table is resized.

class QTableView;

namespace sebo::ui {

// Sizes the columns of `table` now and whenever its viewport is resized. Call again after the
// contents change (the sizes follow the new contents).
void spread_columns(QTableView* table);

}  // namespace sebo::ui
