#pragma once
// The choices of a method shared by the Method panel and the New experiment dialog: the
// strategies (with their one-line descriptions as tooltips) and the surrogate models, so that
// both offer exactly the same list in the same order.

#include "experiment/experiment.h"

class QComboBox;

namespace sebo::ui {

// One item per strategy, data = int(StrategyKind), tooltip = describe(kind).
void add_strategy_items(QComboBox* combo);
// "strategy default" (data -1), then one item per model kind (data = int(ModelKind)).
void add_model_items(QComboBox* combo);

}  // namespace sebo::ui
