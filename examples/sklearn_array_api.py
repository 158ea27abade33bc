"""scikit-learn on dltensor arrays, through the array API.

With ``array_api_dispatch=True`` scikit-learn's array-API-aware estimators compute with the
namespace of their input (``x.__array_namespace__()``, here dltensor) instead of converting to
NumPy, and return arrays of that namespace. Fitting on dltensor arrays gives dltensor arrays
back, equal to what NumPy inputs give.

scikit-learn needs SciPy's array API support switched on too: SCIPY_ARRAY_API=1 must be in the
environment before SciPy is first imported, so this script sets it before importing either.

Run: python examples/sklearn_array_api.py
"""

from __future__ import annotations

import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # read once, when SciPy is first imported

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.model_selection import cross_val_score  # noqa: E402

import dltensor as dt  # noqa: E402


def _data(seed: int = 0):
    """Three Gaussian classes in 5 dimensions, as NumPy arrays."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=3.0, size=(3, 5))
    labels = rng.integers(0, 3, size=300)
    X = centres[labels] + rng.normal(size=(300, 5))
    return X, labels


def accuracy(estimator, X, y):
    """A scorer written with the array API, for any namespace: it answers a 0-d array, which
    scikit-learn takes as a number through its ``item()``."""
    xp = X.__array_namespace__()
    return xp.mean(xp.astype(estimator.predict(X) == y, xp.float64))


def main() -> dict:
    X_np, y_np = _data()
    X, y = dt.asarray(X_np), dt.asarray(y_np)

    sklearn.set_config(array_api_dispatch=True)
    try:
        lda = LinearDiscriminantAnalysis().fit(X, y)
        pred = lda.predict(X)
        proj = lda.transform(X)
        pca = PCA(n_components=2, svd_solver="full").fit(X)
        scores = pca.transform(X)
        training = accuracy(lda, X, y).item()
        folds = cross_val_score(LinearDiscriminantAnalysis(), X, y, cv=3, scoring=accuracy)
    finally:
        sklearn.set_config(array_api_dispatch=False)

    # Results are dltensor arrays: scikit-learn computed with the dltensor namespace.
    for name, a in {"predict": pred, "coef_": lda.coef_, "transform": proj,
                    "pca.transform": scores, "components_": pca.components_}.items():
        assert isinstance(a, dt.ndarray), f"{name} is a {type(a).__name__}"
        assert a.device == X.device

    # ... and equal to scikit-learn's NumPy results.
    lda_np = LinearDiscriminantAnalysis().fit(X_np, y_np)
    np.testing.assert_array_equal(np.asarray(pred), lda_np.predict(X_np))
    np.testing.assert_allclose(np.asarray(lda.coef_), lda_np.coef_, rtol=1e-8)
    pca_np = PCA(n_components=2, svd_solver="full").fit(X_np)
    np.testing.assert_allclose(np.abs(np.asarray(scores)), np.abs(pca_np.transform(X_np)),
                               rtol=1e-7, atol=1e-9)   # components are defined up to sign

    # Cross-validation scored in the namespace, fold by fold: NumPy's scores exactly.
    np.testing.assert_array_equal(
        folds, cross_val_score(LinearDiscriminantAnalysis(), X_np, y_np, cv=3, scoring=accuracy))

    ratio = pca.explained_variance_ratio_
    print(f"LDA training accuracy {training:.3f}; predictions are a {type(pred).__name__} "
          f"of {pred.dtype}; 3-fold cross-validation accuracy {folds}")
    print(f"PCA explained variance ratio {ratio}")
    return {"accuracy": training, "pred": pred, "scores": scores, "folds": folds}


if __name__ == "__main__":
    main()
