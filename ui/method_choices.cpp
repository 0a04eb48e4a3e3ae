#include "method_choices.h"

#include <QComboBox>
#include <QCoreApplication>

namespace sebo::ui {

void add_strategy_items(QComboBox* combo) {
    for (StrategyKind kind : all_strategy_kinds()) {
        combo->addItem(QString::fromLatin1(to_string(kind)), static_cast<int>(kind));
        combo->setItemData(combo->count() - 1, QString::fromLatin1(describe(kind)), Qt::ToolTipRole);
    }
}

void add_model_items(QComboBox* combo) {
    combo->addItem(QCoreApplication::translate("MethodPanel", "strategy default"), -1);
    for (ModelKind kind : all_model_kinds()) combo->addItem(QString::fromLatin1(to_string(kind)), static_cast<int>(kind));
}

}  // namespace sebo::ui
