"""Reading images from files, with a clear message for every way it fails."""

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageError

Image = npt.NDArray[np.uint8]


def load_image(path: str | Path) -> Image:
    """The image at ``path`` as BGR, or :class:`ImageError` saying why not."""
    file = Path(path)
    if not file.is_file():
        raise ImageError(f"{file}: no such image file")
    if file.stat().st_size == 0:
        raise ImageError(f"{file}: the file is empty")
    data = np.fromfile(str(file), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{file}: not an image OpenCV can read (PNG, JPEG, ...)")
    return np.asarray(image, dtype=np.uint8)
