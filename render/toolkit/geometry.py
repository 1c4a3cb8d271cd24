"""Where things go on a picture: boxes, rectangles and points, in pixels."""

Box = tuple[int, int, int, int]
Rect = tuple[float, float, float, float]  # a box in any coordinates, rounded when drawn
Point = tuple[float, float]
