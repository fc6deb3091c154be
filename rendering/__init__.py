"""Pure Pillow renderers: `render(view, ...) -> PIL.Image.Image`, one module per game.

Renderers take a seat's (or the public) view, never raw state, so an image cannot show a secret
the view does not contain.
"""
