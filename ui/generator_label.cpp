#include "generator_label.h"

#include <QCoreApplication>

#include "experiment/status_quo.h"

namespace sebo::ui {

bool is_status_quo(const std::string& generator) { return generator == kStatusQuoGenerator; }

QString generator_label(const std::string& generator) {
    if (is_status_quo(generator)) return QCoreApplication::translate("sebo::ui::TrialsTableModel", "status quo");
    return QString::fromStdString(generator);
}

}  // namespace sebo::ui
