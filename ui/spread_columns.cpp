#include "spread_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QVariant>
#include <vector>

namespace sebo::ui {

namespace {

void size_columns(QTableView* table) {
    QHeaderView* header = table->horizontalHeader();
    header->setStretchLastSection(false);
    table->resizeColumnsToContents();
    std::vector<int> visible;
    int total = 0;
    for (int c = 0; c < header->count(); ++c) {
        if (header->isSectionHidden(c)) continue;
        visible.push_back(c);
        total += table->columnWidth(c);
    }
    const int spare = table->viewport()->width() - total;
    if (visible.empty() || total <= 0 || spare <= 0) return;
    int given = 0;
    for (std::size_t i = 0; i < visible.size(); ++i) {
        const int c = visible[i];
        const int share = i + 1 == visible.size() ? spare - given
                                                  : static_cast<int>(static_cast<long long>(spare) * table->columnWidth(c) / total);
        given += share;
        table->setColumnWidth(c, table->columnWidth(c) + share);
    }
}

// Resizes the columns when the table's viewport changes size. It compares the watched object
// with the viewport it was installed on, and calls nothing on the table for any other event: the
// viewport still receives events while the table is being destroyed, when the table is no longer
// a QTableView.
class ColumnSpreader : public QObject {
public:
    explicit ColumnSpreader(QTableView* table) : QObject(table), table_(table), viewport_(table->viewport()) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize && watched == viewport_) size_columns(table_);
        return false;
    }

private:
    QTableView* table_;
    const QObject* viewport_;
};

}  // namespace

void spread_columns(QTableView* table) {
    if (!table->property("seboSpreadColumns").toBool()) {
        table->setProperty("seboSpreadColumns", true);
        table->viewport()->installEventFilter(new ColumnSpreader(table));
    }
    size_columns(table);
}

}  // namespace sebo::ui
