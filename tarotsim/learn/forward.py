"""The models' forward passes in the kernels (numba, float32 loops: no torch at run time).

The first layer reads the observation as a sparse vector: the sum of the rows of ``w0`` of the
entries that are not 0, each times its value scaled (``features.INPUT_SCALE``), so a position
costs its set entries, not the whole input. Then ReLU, the second layer, ReLU and the head.
The float32 weights come in as arguments (``Model.arrays()``); ``work`` is a float32 scratch of
at least ``hidden[0] + hidden[1] + outputs`` entries (:func:`work_size`).

:func:`location_probabilities` and :func:`policy_probabilities` are the compiled entry points
(batches of positions); a bot inside the deal kernel calls :func:`policy_best` and the cores
they share.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from .._kernels._bits import tzcnt
from .._kernels._cache import guard_cache
from .features import N_LOCATIONS


def work_size(model) -> int:
    """The float32 scratch a forward pass of ``model`` needs."""
    return sum(model.hidden) + model.weights[2].shape[1]


@njit(inline="always")
def _add_scaled(a, row, dst):
    """``dst += a * row`` (float32[n] each): the one loop every layer is made of."""
    for k in range(dst.size):
        dst[k] += a * row[k]


@njit(inline="always")
def _set(src, dst):
    """``dst[:] = src``, as a loop (no copy of the source, so no allocation)."""
    for k in range(dst.size):
        dst[k] = src[k]


@njit(inline="always")
def first_layer(obs, scale, w0, b0, h0):
    """The first layer before its ReLU into ``h0`` (float32[hidden[0]]).

    ``h0 = b0 + sum_i obs[i] scale[i] w0[i]`` over the entries of ``obs`` that are not 0."""
    _set(b0, h0)
    for i in range(obs.size):
        v = obs[i]
        if v != 0:
            _add_scaled(np.float32(v) * scale[i], w0[i], h0)


@njit(inline="always")
def add_cards(t, s, at, scale, w0, h0):
    """``h0 += scale[i] w0[i]`` for the input entries ``i = at + id`` of the cards of the words ``(t, s)``.

    The first layer's share of card flags (hand, écart: entries of value 1) added to a sum
    :func:`first_layer` began, so that positions that differ in those cards only share the rest."""
    while t:
        i = at + tzcnt(t)
        _add_scaled(scale[i], w0[i], h0)
        t &= t - 1
    while s:
        i = at + 22 + tzcnt(s)
        _add_scaled(scale[i], w0[i], h0)
        s &= s - 1


@njit(inline="always")
def _hidden_layer(h0, w1, b1, h1):
    """``h1 = b1 + sum_j relu(h0[j]) w1[j]``: the second layer before its ReLU."""
    _set(b1, h1)
    for j in range(h0.size):
        if h0[j] > 0:
            _add_scaled(h0[j], w1[j], h1)


@njit(inline="always")
def _layers(obs, scale, w0, b0, w1, b1, w2, b2, work):
    """The network on one observation: writes the head's outputs (logits) at ``work[h0 + h1:]``; returns that offset.

    Each layer adds the rows of its weights for the inputs that are not 0, a contiguous slice
    of ``work`` at a time, so that the compiler vectorises the inner loop."""
    n0 = b0.size
    n1 = b1.size
    n2 = b2.size
    h0 = work[:n0]
    h1 = work[n0:n0 + n1]
    logits = work[n0 + n1:n0 + n1 + n2]
    first_layer(obs, scale, w0, b0, h0)
    _hidden_layer(h0, w1, b1, h1)
    _set(b2, logits)
    for j in range(n1):
        if h1[j] > 0:
            _add_scaled(h1[j], w2[j], logits)
    return n0 + n1


@njit(inline="always")
def card_probability(h0, c, lt, ls, w1, b1, w2, b2, work):
    """The policy's probability of card ``c`` among the legal cards ``(lt, ls)``, from its first layer ``h0``.

    ``h0``: the first layer before its ReLU (:func:`first_layer`, :func:`add_cards`); the head is
    computed for the legal cards only (a card's action id is its card id), a softmax over them.
    ``work``: float32[>= hidden[1] + 78] scratch."""
    n1 = b1.size
    h1 = work[:n1]
    logits = work[n1:n1 + 78]
    _hidden_layer(h0, w1, b1, h1)
    top = np.float32(-np.inf)
    for word in range(2):
        m = lt if word == 0 else ls
        while m:
            a = tzcnt(m) + 22 * word
            m &= m - 1
            z = b2[a]
            for j in range(n1):
                if h1[j] > 0:
                    z += h1[j] * w2[j, a]
            logits[a] = z
            if z > top:
                top = z
    total = np.float32(0)
    for word in range(2):
        m = lt if word == 0 else ls
        while m:
            a = tzcnt(m) + 22 * word
            m &= m - 1
            total += np.exp(logits[a] - top)
    return np.exp(logits[c] - top) / total


@njit(inline="always")
def locations_core(obs, allowed, scale, w0, b0, w1, b1, w2, b2, work, out):
    """One position: ``out[c, l]`` the probability that card ``c`` is at location ``l``.

    0 where ``allowed[c]`` (bit l) rules it out; a card whose place is known (one bit) is one-hot
    there, a card played (no bit) all 0; the others a softmax over their allowed locations."""
    o = _layers(obs, scale, w0, b0, w1, b1, w2, b2, work)
    for c in range(out.shape[0]):
        a = allowed[c]
        top = np.float32(-np.inf)
        for l in range(N_LOCATIONS):
            out[c, l] = 0
            if (a >> l) & 1:
                z = work[o + c * N_LOCATIONS + l]
                if z > top:
                    top = z
        if a == 0:
            continue
        total = np.float32(0)
        for l in range(N_LOCATIONS):
            if (a >> l) & 1:
                p = np.exp(work[o + c * N_LOCATIONS + l] - top)
                out[c, l] = p
                total += p
        for l in range(N_LOCATIONS):
            out[c, l] /= total


@njit(inline="always")
def policy_core(obs, mask, scale, w0, b0, w1, b1, w2, b2, work, out):
    """One position: ``out[a]`` the probability of action id ``a``, 0 for an illegal one (``mask[a]`` 0)."""
    o = _layers(obs, scale, w0, b0, w1, b1, w2, b2, work)
    top = np.float32(-np.inf)
    for a in range(out.size):
        if mask[a] and work[o + a] > top:
            top = work[o + a]
    total = np.float32(0)
    for a in range(out.size):
        out[a] = 0
        if mask[a]:
            p = np.exp(work[o + a] - top)
            out[a] = p
            total += p
    for a in range(out.size):
        out[a] /= total


@njit(inline="always")
def policy_best(obs, mask, scale, w0, b0, w1, b1, w2, b2, work):
    """The legal action id (``mask``) of the largest logit, the lowest id among equals; -1 when none is legal."""
    o = _layers(obs, scale, w0, b0, w1, b1, w2, b2, work)
    best = -1
    top = np.float32(-np.inf)
    for a in range(b2.size):
        if mask[a] and (best < 0 or work[o + a] > top):
            best = a
            top = work[o + a]
    return best


# --- a model inside another kernel's int64 scratch -----------------------------------------------
# A search that reads a model inside the deal kernel gets it as int64 words after its own scratch
# (``bots.search``): a header, then the float32 arrays, each from a word boundary, then the
# forward pass's scratch and its output. :func:`pack` writes them; :func:`unpack` views them.

#: The first word of a packed model (a scratch that holds no model never starts with it).
PACK_MAGIC = 0x6C6F63617469306E
#: Header words: the magic, then the input, the two hidden sizes and the output size.
PACK_HEADER = 5


@njit(inline="always")
def _words(n_floats):
    """Words holding ``n_floats`` float32 values (two a word)."""
    return (n_floats + 1) // 2


@njit(inline="always")
def pack_offsets(n_in, h0, h1, n_out):
    """The word offsets of a packed model's arrays: ``scale, w0, b0, w1, b1, w2, b2, work, out``, then its length."""
    o_scale = PACK_HEADER
    o_w0 = o_scale + _words(n_in)
    o_b0 = o_w0 + _words(n_in * h0)
    o_w1 = o_b0 + _words(h0)
    o_b1 = o_w1 + _words(h0 * h1)
    o_w2 = o_b1 + _words(h1)
    o_b2 = o_w2 + _words(h1 * n_out)
    o_work = o_b2 + _words(n_out)
    o_out = o_work + _words(h0 + h1 + n_out)
    end = o_out + _words(n_out)
    return o_scale, o_w0, o_b0, o_w1, o_b1, o_w2, o_b2, o_work, o_out, end


def pack(model, scale) -> np.ndarray:
    """The int64 words of ``model`` (``Model``) and the input scale ``scale`` (float32[n_in]), for :func:`unpack`."""
    w0, b0, w1, b1, w2, b2 = model.arrays()
    n_in, h0 = w0.shape
    h1 = w1.shape[1]
    n_out = w2.shape[1]
    offs = pack_offsets.py_func(n_in, h0, h1, n_out)
    words = np.zeros(offs[-1], dtype=np.int64)
    words[:PACK_HEADER] = (PACK_MAGIC, n_in, h0, h1, n_out)
    floats = words.view(np.float32)
    for at, a in zip(offs[:7], (scale, w0, b0, w1, b1, w2, b2)):
        floats[2 * at:2 * at + a.size] = np.asarray(a, dtype=np.float32).ravel()
    return words


@njit(inline="always")
def has_model(words):
    """Whether ``words`` (int64[:]) starts with a packed model (:func:`pack`)."""
    return words.size > PACK_HEADER and words[0] == PACK_MAGIC


@njit(inline="always")
def unpack(words):
    """Views of a packed model: ``(scale, w0, b0, w1, b1, w2, b2, work, out)``, float32, ``out`` of ``n_out`` entries."""
    n_in, h0, h1, n_out = words[1], words[2], words[3], words[4]
    o_scale, o_w0, o_b0, o_w1, o_b1, o_w2, o_b2, o_work, o_out, end = pack_offsets(n_in, h0, h1, n_out)
    scale = words[o_scale:o_w0].view(np.float32)[:n_in]
    w0 = words[o_w0:o_b0].view(np.float32)[:n_in * h0].reshape((n_in, h0))
    b0 = words[o_b0:o_w1].view(np.float32)[:h0]
    w1 = words[o_w1:o_b1].view(np.float32)[:h0 * h1].reshape((h0, h1))
    b1 = words[o_b1:o_w2].view(np.float32)[:h1]
    w2 = words[o_w2:o_b2].view(np.float32)[:h1 * n_out].reshape((h1, n_out))
    b2 = words[o_b2:o_work].view(np.float32)[:n_out]
    work = words[o_work:o_out].view(np.float32)[:h0 + h1 + n_out]
    out = words[o_out:end].view(np.float32)[:n_out]
    return scale, w0, b0, w1, b1, w2, b2, work, out


@njit(inline="always")
def packed_model(words, n_out):
    """The words of the first model with ``n_out`` outputs among the models packed one after another in ``words``.

    A search that reads several models finds each by its output size (:func:`pack`); empty when
    none has it."""
    at = np.int64(0)
    while words.size - at > PACK_HEADER and words[at] == PACK_MAGIC:
        end = at + pack_offsets(words[at + 1], words[at + 2], words[at + 3], words[at + 4])[-1]
        if words[at + 4] == n_out:
            return words[at:end]
        at = end
    return words[:0]


@njit(cache=True, nogil=True)
def location_probabilities(obs, allowed, scale, w0, b0, w1, b1, w2, b2, work, out):
    """``out[i]`` (float32[78, N_LOCATIONS]): :func:`locations_core` of position ``i`` (``obs[i]``, ``allowed[i]``)."""
    for i in range(obs.shape[0]):
        locations_core(obs[i], allowed[i], scale, w0, b0, w1, b1, w2, b2, work, out[i])


@njit(cache=True, nogil=True)
def policy_probabilities(obs, mask, scale, w0, b0, w1, b1, w2, b2, work, out):
    """``out[i]`` (float32[N_ACTIONS]): :func:`policy_core` of position ``i`` (``obs[i]``, ``mask[i]``)."""
    for i in range(obs.shape[0]):
        policy_core(obs[i], mask[i], scale, w0, b0, w1, b1, w2, b2, work, out[i])


@njit(cache=True, nogil=True)
def policy_actions(obs, mask, scale, w0, b0, w1, b1, w2, b2, work, out):
    """``out[i]``: :func:`policy_best` of position ``i``, the action the ``learned`` bot plays."""
    for i in range(obs.shape[0]):
        out[i] = policy_best(obs[i], mask[i], scale, w0, b0, w1, b1, w2, b2, work)


guard_cache("tarotsim-learn-forward", (location_probabilities, policy_probabilities, policy_actions),
            [Path(__file__).resolve(), Path(__file__).resolve().parent / "features.py"])
