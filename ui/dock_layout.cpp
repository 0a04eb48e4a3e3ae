#include "dock_layout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <algorithm>
#include <cmath>

namespace sebo::ui {

namespace {

constexpr int kWideMinimumWidth = 1500;
constexpr int kWideMinimumHeight = 850;

int share(int total, double fraction, int low, int high) {
    return std::clamp(static_cast<int>(std::lround(total * fraction)), low, std::max(low, high));
}

}  // namespace

QList<QDockWidget*> DockLayout::Docks::all() const {
    QList<QDockWidget*> list;
    for (QDockWidget* d : {method, configuration, activation, parallel, trials, hypervolume, log})
        if (d) list << d;
    return list;
}

DockLayout::Arrangement DockLayout::arrangementFor(QSize window) {
    return window.width() >= kWideMinimumWidth && window.height() >= kWideMinimumHeight ? Arrangement::Wide
                                                                                         : Arrangement::Compact;
}

QSize DockLayout::initialWindowSize(QSize available) {
    if (!available.isValid() || available.isEmpty()) return QSize(1400, 900);
    // On a laptop-sized screen every pixel is needed (at 92 % of 1024x700 the frontier chart's
    // axis title no longer fits beside the docks once a message shows): all of it.
    if (arrangementFor(available) == Arrangement::Compact) return available;
    return QSize(std::min(1800, available.width() * 92 / 100), std::min(1120, available.height() * 92 / 100));
}

void DockLayout::apply(QMainWindow* window, const Docks& docks) {
    apply(window, docks, arrangementFor(window->size()));
}

void DockLayout::apply(QMainWindow* window, const Docks& docks, Arrangement arrangement) {
    const QList<QDockWidget*> all = docks.all();
    for (QDockWidget* d : all) {
        window->removeDockWidget(d);
        d->setFloating(false);
    }
    const auto add = [window](QDockWidget* d, Qt::DockWidgetArea area) {
        if (d) window->addDockWidget(area, d);
    };
    const auto split = [window](QDockWidget* first, QDockWidget* second, Qt::Orientation orientation) {
        if (first && second) window->splitDockWidget(first, second, orientation);
    };
    const auto tab = [window](QDockWidget* first, QDockWidget* second) {
        if (first && second) window->tabifyDockWidget(first, second);
    };
    const QSize size = window->size();

    if (arrangement == Arrangement::Wide) {
        // Method | chart | configuration over activation; trials and hypervolume below, full width.
        // Parallel coordinates need width (an axis per metric and changed parameter) and height:
        // beside the hypervolume, not under the configuration (there, issue 32's walk-through
        // found a plot 50 px tall at 1920x1080 and 25 px at 1024x700, scrolling both ways).
        window->setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
        window->setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
        add(docks.method, Qt::LeftDockWidgetArea);
        add(docks.configuration, Qt::RightDockWidgetArea);
        add(docks.trials, Qt::BottomDockWidgetArea);
        add(docks.activation, Qt::RightDockWidgetArea);
        split(docks.configuration, docks.activation, Qt::Vertical);
        add(docks.hypervolume, Qt::BottomDockWidgetArea);
        split(docks.trials, docks.hypervolume, Qt::Horizontal);
        tab(docks.hypervolume, docks.parallel);
        tab(docks.hypervolume, docks.log);
    } else {
        // The right column takes the full height: configuration (method behind it) over
        // activation; under the chart, as wide as it, one tabbed group of trials, hypervolume,
        // parallel coordinates and the log.
        window->setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
        window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
        // (A tabbed dock cannot be split: split first, then tab.)
        add(docks.configuration, Qt::RightDockWidgetArea);
        add(docks.activation, Qt::RightDockWidgetArea);
        split(docks.configuration, docks.activation, Qt::Vertical);
        tab(docks.configuration, docks.method);
        add(docks.trials, Qt::BottomDockWidgetArea);
        tab(docks.trials, docks.hypervolume);
        tab(docks.trials, docks.parallel);
        tab(docks.trials, docks.log);
    }
    // When method or log were not placed by the arrangement (no partner), they still get a place.
    for (QDockWidget* d : all) {
        if (window->dockWidgetArea(d) == Qt::NoDockWidgetArea) window->addDockWidget(Qt::RightDockWidgetArea, d);
        d->show();
    }
    for (QDockWidget* d : {docks.configuration, docks.activation, docks.trials, docks.hypervolume})
        if (d) d->raise();

    const int right = share(size.width(), 0.3, 300, 420);
    const int bottom = share(size.height(), arrangement == Arrangement::Wide ? 0.3 : 0.34, 210, 360);
    if (arrangement == Arrangement::Wide) {
        if (docks.method && docks.configuration)
            window->resizeDocks({docks.method, docks.configuration}, {share(size.width(), 0.15, 250, 300), right},
                                Qt::Horizontal);
        if (docks.trials && docks.hypervolume)
            window->resizeDocks({docks.trials, docks.hypervolume}, {size.width() * 55 / 100, size.width() * 45 / 100},
                                Qt::Horizontal);
        if (docks.trials) window->resizeDocks({docks.trials}, {bottom}, Qt::Vertical);
    } else {
        if (docks.configuration) window->resizeDocks({docks.configuration}, {right}, Qt::Horizontal);
        if (docks.trials) window->resizeDocks({docks.trials}, {bottom}, Qt::Vertical);
    }
    if (docks.configuration && docks.activation) {
        const int column = size.height() - (arrangement == Arrangement::Wide ? bottom : 0);
        window->resizeDocks({docks.configuration, docks.activation}, {column * 55 / 100, column * 45 / 100},
                            Qt::Vertical);
    }
}

void DockLayout::save(const QMainWindow* window, const Docks& docks, QSettings& settings, QSize available) {
    settings.setValue("window/geometry", window->saveGeometry());
    settings.setValue("window/state", window->saveState());
    settings.setValue("window/size", window->size());
    settings.setValue("window/screen", available);
    QStringList closed;
    for (QDockWidget* d : docks.all())
        if (d->isHidden()) closed << d->objectName();
    settings.setValue("window/closedDocks", closed);
}

DockLayout::Restored DockLayout::restore(QMainWindow* window, const Docks& docks, QSettings& settings,
                                         QSize available) {
    const QByteArray geometry = settings.value("window/geometry").toByteArray();
    const QByteArray state = settings.value("window/state").toByteArray();
    if (geometry.isEmpty() && state.isEmpty()) return Restored::Nothing;
    const QSize saved_size = settings.value("window/size").toSize();
    const QSize saved_screen = settings.value("window/screen").toSize();
    // Made on this screen or a larger one? (Layouts of older versions say nothing: by the size.)
    const QSize made_for = saved_screen.isValid() ? saved_screen : saved_size;
    const bool fits = !available.isValid() || !made_for.isValid() ||
                      (made_for.width() <= available.width() && made_for.height() <= available.height()) ||
                      (saved_size.isValid() && saved_size.width() <= available.width() &&
                       saved_size.height() <= available.height());
    if (fits) {
        if (!geometry.isEmpty()) window->restoreGeometry(geometry);
        if (!state.isEmpty()) window->restoreState(state);
        return Restored::Saved;
    }
    window->resize(initialWindowSize(available));
    apply(window, docks);
    const QStringList closed = settings.value("window/closedDocks").toStringList();
    for (QDockWidget* d : docks.all())
        if (closed.contains(d->objectName())) d->hide();
    return Restored::DefaultForSmallerScreen;
}

}  // namespace sebo::ui
