#pragma once
// Where the explorer's docks go, for the size of the window (issue 17, item 2): at 1024×700 and
// 1366×768 side by side panels do not fit, so the compact arrangement tabs them; from about
// 1500×850 on, the wide arrangement shows them side by side. Every panel keeps its minimum size
// (charts keep readable axes, the method panel its fields and Apply), so a narrow window never
// squeezes one; it is the arrangement that changes — when the window is first shown, on View ›
// Reset layout, and when a resize crosses from one arrangement's sizes to the other's.
//
// Saved layouts remember the screen they were made on: one saved on a larger screen than the
// current one is not restored (its docks would not fit); the window then takes the default
// arrangement for its size, keeping closed what the person had closed.

#include <QList>
#include <QSize>
#include <QStringList>

class QDockWidget;
class QMainWindow;
class QSettings;

namespace sebo::ui {

class DockLayout {
public:
    enum class Arrangement { Compact, Wide };

    // The docks by their part in the arrangement; a null member is left alone.
    struct Docks {
        QDockWidget* method = nullptr;
        QDockWidget* configuration = nullptr;
        QDockWidget* activation = nullptr;
        QDockWidget* parallel = nullptr;  // in the wide bottom group, tabbed with hypervolume
        QDockWidget* trials = nullptr;
        QDockWidget* hypervolume = nullptr;
        QDockWidget* log = nullptr;  // tabbed with hypervolume
        QList<QDockWidget*> all() const;
    };

    // The arrangement for a window of this size.
    static Arrangement arrangementFor(QSize window);
    // Places and sizes every dock for the window's current size, and shows them all.
    static void apply(QMainWindow* window, const Docks& docks);
    static void apply(QMainWindow* window, const Docks& docks, Arrangement arrangement);

    // The first size of a window on a screen whose free area is `available`: all of it on a
    // screen below the wide arrangement's size, otherwise most of it, at most 1800×1120.
    static QSize initialWindowSize(QSize available);

    // Saves geometry, dock state, the free screen area it was made on and which docks are closed.
    static void save(const QMainWindow* window, const Docks& docks, QSettings& settings, QSize available);

    enum class Restored { Nothing, Saved, DefaultForSmallerScreen };
    // Restores what save() stored when it fits in `available`. A layout saved for a larger screen
    // is replaced by the default arrangement for a window sized to this screen, with the same
    // docks closed.
    static Restored restore(QMainWindow* window, const Docks& docks, QSettings& settings, QSize available);
};

}  // namespace sebo::ui
